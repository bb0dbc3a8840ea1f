package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.observability.MetricNamespace;
import io.gpupipe.model.observability.TracingSettings;
import io.gpupipe.model.owner.IamCallerScope;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.cloudformation.include.CfnInclude;

/**
 * The root sam-template.yaml, read through CfnInclude (which understands the YAML short forms), checked for the
 * security defaults cfn-lint does not enforce, and for the contract with this app: every export the CDK stacks
 * import is one the SAM stack defines.
 */
class SamTemplateTest {
    private static Template sam;

    @BeforeAll
    static void load() {
        sam = include();
    }

    /** The root sam-template.yaml as a CDK {@link Template} (also used by {@link SamTemplateTiersTest}). */
    static Template include() {
        Stack holder = new Stack(new App(), "sam");
        CfnInclude.Builder.create(holder, "Template")
                .templateFile(Path.of("..", "sam-template.yaml").toString())
                // kept as written: CDK's typed SAM resources lag behind the SAM specification, and the SQS event
                // source mappings name their function's alias SAM's way (!Ref Function.Alias)
                .dehydratedResources(List.of("InferenceApi", "RouterFunction", "ScalingMetricFunction",
                        "ResultNotifierFunction", "RepairLoggerFunction", "DeadLetterFunction",
                        "BatchFunction", "DeadLetterFunctionDeadLetteredJobs", "BatchFunctionBatchSteps",
                        "ResultNotifierFunctionCallbackRedelivery"))
                .build();
        return Template.fromStack(holder);
    }

    @Test
    void exports_shouldCoverEveryValueTheCdkStacksImport_whenBothSynthesized() {
        // given
        Set<String> samExports = sam.findOutputs("*").values().stream()
                .filter(o -> o.containsKey("Export"))
                .map(o -> String.valueOf(map(map(o.get("Export")).get("Name")).get("Fn::Sub")))
                .map(name -> name.replace("${AWS::StackName}", SynthesizedApp.SAM_STACK))
                .collect(Collectors.toSet());
        SynthesizedApp app = SynthesizedApp.get();

        // when: imports of the SAM stack (the app's own cross-stack references contain "ExportsOutput")
        Set<String> imported = Stream.of(app.network, app.registry, app.gpu, app.monitoring)
                .flatMap(t -> TemplateJson.importedNames(t.toJSON()).stream())
                .filter(name -> !name.contains(":ExportsOutput"))
                .collect(Collectors.toSet());

        // then
        assertThat(imported).isNotEmpty().allMatch(samExports::contains);
    }

    @Test
    void queues_shouldBeEncryptedAndTlsOnlyWithRedriveToDlq_whenDeployed() {
        // then
        sam.allResourcesProperties("AWS::SQS::Queue", Match.objectLike(Map.of("SqsManagedSseEnabled", true)));
        sam.hasResourceProperties("AWS::SQS::Queue", Match.objectLike(Map.of("VisibilityTimeout",
                Map.of("Ref", "SmallVisibilityTimeout"), "RedrivePolicy", Match.objectLike(Map.of(
                        "maxReceiveCount", Map.of("Ref", "MaxReceiveCount"))))));
        sam.hasResourceProperties("AWS::SQS::Queue", Match.objectLike(Map.of("VisibilityTimeout",
                Map.of("Ref", "LargeVisibilityTimeout"))));
        sam.hasResourceProperties("AWS::SQS::Queue", Map.of("MessageRetentionPeriod", 1209600,
                "SqsManagedSseEnabled", true));
        assertThat(sam.findParameters("MaxReceiveCount").get("MaxReceiveCount")).containsEntry("Default", 3);
        assertThat(sam.findParameters("SmallVisibilityTimeout").get("SmallVisibilityTimeout"))
                .containsEntry("Default", 300);
        assertThat(sam.findParameters("LargeVisibilityTimeout").get("LargeVisibilityTimeout"))
                .containsEntry("Default", 900);
        Map<String, Object> queuePolicy = properties(sam.findResources("AWS::SQS::QueuePolicy").values().stream()
                .findFirst().orElseThrow());
        assertThat(list(queuePolicy.get("Queues"))).hasSize(sam.findResources("AWS::SQS::Queue").size());
        assertDeniesInsecureTransport(map(queuePolicy.get("PolicyDocument")));
    }

    @Test
    void retention_shouldKeepEveryWaitingJobAndItsMarker_whenATierSitsAtZero() {
        // given: SQS's longest retention; a standard queue's DLQ counts it from the original enqueue time, so the
        // DLQ must keep at least as long as the tier queues (SQS developer guide, "dead-letter queue retention")
        int sqsMaxRetentionSeconds = 1_209_600;

        // then: every queue keeps messages explicitly for SQS's maximum (never the 4-day default)
        Map<String, Map<String, Object>> queues = sam.findResources("AWS::SQS::Queue");
        assertThat(queues).isNotEmpty();
        queues.forEach((name, queue) -> assertThat(properties(queue)).as(name)
                .containsEntry("MessageRetentionPeriod", sqsMaxRetentionSeconds));
        // markers expire with results, and both outlive the longest a message can wait in a queue
        List<Map<String, Object>> rules = list(map(properties(sam.findResources("AWS::S3::Bucket").values().stream()
                .findFirst().orElseThrow()).get("LifecycleConfiguration")).get("Rules")).stream()
                .map(TemplateJson::map).toList();
        Object markerExpiry = rules.stream().filter(r -> "jobs/".equals(r.get("Prefix"))).findFirst().orElseThrow()
                .get("ExpirationInDays");
        Object resultExpiry = rules.stream().filter(r -> "results/".equals(r.get("Prefix"))).findFirst()
                .orElseThrow().get("ExpirationInDays");
        Object deliveryRecordExpiry = rules.stream().filter(r -> "notifications/".equals(r.get("Prefix")))
                .findFirst().orElseThrow().get("ExpirationInDays");
        assertThat(markerExpiry).isEqualTo(resultExpiry).isEqualTo(deliveryRecordExpiry)
                .isEqualTo(Map.of("Ref", "ResultRetentionDays"));
        Map<String, Object> days = sam.findParameters("ResultRetentionDays").get("ResultRetentionDays");
        assertThat(((Number) days.get("MinValue")).longValue() * 86_400).isGreaterThan(sqsMaxRetentionSeconds);
    }

    @Test
    void resultCache_shouldExpireByItsOwnLifecycleRule_andBeReadableAndAnswerableByTheRouter() {
        // given
        List<Map<String, Object>> rules = list(map(properties(sam.findResources("AWS::S3::Bucket").values().stream()
                .findFirst().orElseThrow()).get("LifecycleConfiguration")).get("Rules")).stream()
                .map(TemplateJson::map).toList();
        // then: cache/ entries expire after CacheTtlDays (at least a day), independently of results
        Map<String, Object> cache = rules.stream().filter(r -> "cache/".equals(r.get("Prefix"))).findFirst()
                .orElseThrow();
        assertThat(cache.get("ExpirationInDays")).isEqualTo(Map.of("Ref", "CacheTtlDays"));
        assertThat(sam.findParameters("CacheTtlDays").get("CacheTtlDays")).containsEntry("MinValue", 1);
        // and the router may read entries and write a hit's result and audio copy (CopyObject: get + put)
        String router = routerPolicies();
        assertThat(router).contains("AnswerFromTheResultCache").contains("/cache/*")
                .contains("WriteCachedResultsAndTheirAudio");
    }

    @Test
    void bucket_shouldBeVersionedEncryptedPrivateAndTlsOnly_whenDeployed() {
        // then
        sam.hasResourceProperties("AWS::S3::Bucket", Match.objectLike(Map.of(
                "VersioningConfiguration", Map.of("Status", "Enabled"),
                "PublicAccessBlockConfiguration", Map.of("BlockPublicAcls", true, "BlockPublicPolicy", true,
                        "IgnorePublicAcls", true, "RestrictPublicBuckets", true),
                "BucketEncryption", Match.anyValue(),
                "LifecycleConfiguration", Match.objectLike(Map.of("Rules", Match.arrayWith(List.of(
                        Match.objectLike(Map.of("Prefix", "jobs/")),
                        Match.objectLike(Map.of("Prefix", "results/"))))))))); 
        assertDeniesInsecureTransport(map(properties(sam.findResources("AWS::S3::BucketPolicy").values().stream()
                .findFirst().orElseThrow()).get("PolicyDocument")));
    }

    @Test
    void topics_shouldBeEncryptedWithTheCustomerKey_whenDeployed() {
        // then
        assertThat(sam.findResources("AWS::SNS::Topic")).hasSize(3);
        sam.allResourcesProperties("AWS::SNS::Topic", Map.of("KmsMasterKeyId", Map.of("Ref", "TopicKey")));
        sam.hasResourceProperties("AWS::KMS::Key", Match.objectLike(Map.of("EnableKeyRotation", true)));
    }

    @Test
    void api_shouldRequireTheAuthParametersCallerOnEveryRoute_withThrottlingAndAccessLogs_whenDeployed() {
        // then: throttling and access logs on the stage
        sam.hasResourceProperties("AWS::Serverless::HttpApi", Match.objectLike(Map.of(
                "DefaultRouteSettings", Match.objectLike(Map.of("ThrottlingBurstLimit", Match.anyValue(),
                        "ThrottlingRateLimit", Match.anyValue())),
                "AccessLogSettings", Match.objectLike(Map.of("DestinationArn", Match.anyValue())))));
        // and every route secured by SigV4 (Auth=IAM) or the JWT authorizer (Auth=JWT), none open
        Map<String, Object> api = properties(sam.findResources("AWS::Serverless::HttpApi").values().iterator()
                .next());
        Map<String, Object> paths = map(map(api.get("DefinitionBody")).get("paths"));
        Object byAuth = Map.of("Fn::If", List.of("UseJwtAuth", List.of(Map.of("CallerJwt", List.of())),
                List.of(Map.of("AWS_IAM", List.of()))));
        assertThat(paths).isNotEmpty();
        paths.forEach((path, methods) -> map(methods).forEach((method, operation) ->
                assertThat(map(operation).get("security")).as(method + " " + path).isEqualTo(byAuth)));
        assertThat(map(map(map(api.get("DefinitionBody")).get("components")).get("securitySchemes")))
                .containsKeys("AWS_IAM", "CallerJwt");
    }

    @Test
    void functions_shouldSwitchRuntimeByPackageAndLogWithRetention_whenSix() {
        // then
        Map<String, Map<String, Object>> functions = sam.findResources("AWS::Serverless::Function");
        // dehydrated resources get CDK logical ids: TemplateRouterFunctionXXXX
        assertThat(functions.keySet()).hasSize(6)
                .anyMatch(k -> k.contains("RouterFunction")).anyMatch(k -> k.contains("ScalingMetricFunction"))
                .anyMatch(k -> k.contains("ResultNotifierFunction")).anyMatch(k -> k.contains("RepairLoggerFunction"))
                .anyMatch(k -> k.contains("DeadLetterFunction")).anyMatch(k -> k.contains("BatchFunction"));
        functions.forEach((name, f) -> {
            Map<String, Object> p = properties(f);
            assertThat(String.valueOf(p.get("CodeUri"))).as(name).matches("functions/[a-z-]+/target/function\\.zip");
            assertThat(p).as(name).containsKeys("MemorySize", "Timeout", "LoggingConfig");
        });
        Map<String, Object> globals = map(map(sam.toJSON().get("Globals")).get("Function"));
        assertThat(globals.get("Runtime")).isEqualTo(Map.of("Fn::If", List.of("IsNative", "provided.al2023",
                "java21")));
        assertThat(globals.get("SnapStart").toString()).contains("PublishedVersions");
        sam.allResourcesProperties("AWS::Logs::LogGroup", Map.of("RetentionInDays",
                Map.of("Ref", "LogRetentionDays")));
    }

    @Test
    void metricNamespace_shouldReachEveryFunctionThroughOneVariable_whenDeployed() {
        Map<String, Object> globals = map(map(sam.toJSON().get("Globals")).get("Function"));
        assertThat(map(map(globals.get("Environment")).get("Variables")))
                .containsEntry(MetricNamespace.ENV_VAR, Map.of("Ref", "MetricNamespace"));
        // no function overrides it with a module key of its own
        sam.findResources("AWS::Serverless::Function").forEach((name, f) -> assertThat(
                String.valueOf(properties(f).get("Environment"))).as(name).doesNotContain("METRIC_NAMESPACE"));
    }

    @Test
    void tracing_shouldReachEveryFunction_asTheTelemetryModulesVariables() {
        Map<String, Object> variables = map(map(map(map(sam.toJSON().get("Globals")).get("Function"))
                .get("Environment")).get("Variables"));
        assertThat(variables).containsEntry(TracingSettings.EXPORTER_ENV, Map.of("Ref", "TracingExporter"))
                .containsEntry(TracingSettings.OTLP_ENDPOINT_ENV, Map.of("Ref", "TracingOtlpEndpoint"));
        Map<String, Object> exporter = sam.findParameters("TracingExporter").get("TracingExporter");
        assertThat(exporter).containsEntry("Default", TracingSettings.NONE)
                .containsEntry("AllowedValues", List.of(TracingSettings.NONE, TracingSettings.OTLP));
    }

    @Test
    void functionPolicies_shouldNameResourcesExceptForResourcelessActions_whenDeployed() {
        // given: CloudWatch metric APIs have no resource type; EC2 Auto Scaling's Describe* actions take no
        // resource-level permissions (the scaling function's warm-pool groups, docs/cold-start.md)
        Set<String> resourceless = Set.of("cloudwatch:PutMetricData", "cloudwatch:GetMetricData",
                "autoscaling:DescribeAutoScalingGroups");

        // when
        List<Object> wildcardActions = sam.findResources("AWS::Serverless::Function").values().stream()
                .flatMap(f -> list(properties(f).get("Policies")).stream())
                .map(TemplateJson::map)
                .filter(p -> p.containsKey("Statement"))
                .flatMap(p -> list(p.get("Statement")).stream())
                .map(TemplateJson::map)
                .filter(s -> s.containsKey("Resource")) // the rest are Fn::If-guarded statements naming resources
                .filter(s -> list(s.get("Resource")).contains("*"))
                .flatMap(s -> list(s.get("Action")).stream())
                .toList();

        // then
        assertThat(wildcardActions).isNotEmpty().allMatch(resourceless::contains);
    }

    @Test
    void deadLetterFunction_shouldConsumeOnlyTheDlqWithPartialBatchResponses_whenDeployed() {
        // given
        Map<String, Object> function = properties(sam.findResources("AWS::Serverless::Function").entrySet().stream()
                .filter(e -> e.getKey().contains("DeadLetterFunction")).findFirst().orElseThrow().getValue());

        // then: SQS-triggered on the DLQ; only reported messages stay
        // (its event source mapping, as deployed: SamTranslatedTemplateTest)
        // its own least-privilege role: the DLQ, markers read, results written, nothing else
        List<Map<String, Object>> statements = list(map(list(function.get("Policies")).get(0)).get("Statement"))
                .stream().map(TemplateJson::map).filter(s -> s.containsKey("Sid")).toList();
        assertThat(statements).extracting(s -> s.get("Sid")).containsExactly("ConsumeTheJobDlqOnly", "ReadMarkers",
                "WriteResultsCreateOnly", "MissingKeysAre404Not403", "ReadDeploymentKey");
        assertThat(statements.get(0).get("Resource")).isEqualTo(Map.of("Fn::GetAtt", "JobDeadLetterQueue.Arn"));
        assertThat(String.valueOf(statements.get(1).get("Resource"))).contains("/jobs/*");
        assertThat(statements.get(2).get("Action")).isEqualTo("s3:PutObject");
        assertThat(String.valueOf(statements.get(2).get("Resource"))).contains("/results/*");
        assertThat(function).containsKey("ReservedConcurrentExecutions");
    }

    @Test
    void notifier_shouldRedeliverCallbacksFromItsRetryQueueAndAlarmWhenGivingUp_whenDeployed() {
        // given
        Map<String, Object> notifier = properties(sam.findResources("AWS::Serverless::Function").entrySet().stream()
                .filter(e -> e.getKey().contains("ResultNotifierFunction")).findFirst().orElseThrow().getValue());

        // then: it is told the queue, and consumes it
        assertThat(map(map(notifier.get("Environment")).get("Variables")))
                .containsEntry("GPUPIPE_NOTIFIER_CALLBACK_RETRY_QUEUE_URL", Map.of("Ref", "CallbackRetryQueue"));
        // (its event source mapping on that queue, as deployed: SamTranslatedTemplateTest)
        // a message it keeps failing on ends in the alarmed function-failure queue; a given-up callback alarms
        sam.hasResourceProperties("AWS::SQS::Queue", Match.objectLike(Map.of("RedrivePolicy", Match.objectLike(Map.of(
                "deadLetterTargetArn", Map.of("Fn::GetAtt", "FunctionFailureQueue.Arn"))))));
        sam.hasResourceProperties("AWS::Logs::MetricFilter", Match.objectLike(Map.of(
                "FilterPattern", "{ $.event = \"callback-undeliverable\" }")));
        sam.hasResourceProperties("AWS::CloudWatch::Alarm", Match.objectLike(Map.of(
                "MetricName", "UndeliverableCallbacks", "AlarmActions", List.of(Map.of("Ref", "AlarmTopic")))));
    }

    /** The router function's Policies, as written in the template (the SAM function stays dehydrated). */
    private static String routerPolicies() {
        String template;
        try {
            template = java.nio.file.Files.readString(Path.of("..", "sam-template.yaml"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        int start = template.indexOf("\n  RouterFunction:\n");
        int policies = template.indexOf("      Policies:", start);
        return template.substring(policies, template.indexOf("      Events:", policies));
    }

    @Test
    void batchFunction_shouldConsumeTheBatchQueueOneStepAtATime_withItsOwnRoleAndADlqAlarm() {
        // given
        Map<String, Object> function = function("BatchFunction");

        // then: SQS-triggered on the batch queue, one step per invocation, only failed steps kept
        // (its event source mapping, one step per invocation, as deployed: SamTranslatedTemplateTest)
        // the queue: visibility 6 x the timeout (Lambda's advice for SQS sources), redrive to an alarmed DLQ
        Map<String, Object> queue = properties(sam.findResources("AWS::SQS::Queue").get("BatchQueue"));
        assertThat(((Number) queue.get("VisibilityTimeout")).intValue())
                .isEqualTo(6 * ((Number) function.get("Timeout")).intValue());
        // (a JSON-typed property keeps the short form: {"Fn::GetAtt": "BatchDeadLetterQueue.Arn"})
        assertThat(map(queue.get("RedrivePolicy")).get("deadLetterTargetArn"))
                .isEqualTo(Map.of("Fn::GetAtt", "BatchDeadLetterQueue.Arn"));
        sam.hasResourceProperties("AWS::CloudWatch::Alarm", Match.objectLike(Map.of("Dimensions", List.of(Map.of(
                "Name", "QueueName", "Value", Map.of("Fn::GetAtt", "BatchDeadLetterQueue.QueueName"))),
                "AlarmActions", List.of(Map.of("Ref", "AlarmTopic")))));
        // its role names each prefix it touches, and nothing else (after one generated statement per tier queue)
        int tierStatements = io.gpupipe.model.TierCatalogue.bundled().tiers().size();
        List<Map<String, Object>> statements = list(map(list(function.get("Policies")).get(tierStatements))
                .get("Statement"))
                .stream().map(TemplateJson::map).filter(s -> s.containsKey("Sid")).toList();
        assertThat(statements).extracting(s -> s.get("Sid")).containsExactly("BatchQueue", "ReadInputs",
                "BatchRecords", "JobMarkers", "ClaimCheckPayloads", "ReadResults", "QuotaLedgers",
                "ListRecordsAndMissingKeysAre404Not403", "ReadDeploymentKey");
        assertThat(String.valueOf(statements.get(1).get("Resource"))).contains("/batch-inputs/*");
        assertThat(statements.get(1).get("Action")).isEqualTo("s3:GetObject");
    }

    @Test
    void batchApi_shouldRouteEveryBatchPathToTheRouter_andTheFinalRecordToTheNotifier() {
        // given
        Map<String, Object> routerEvents = map(function("RouterFunction").get("Events"));
        Map<String, Object> notifier = function("ResultNotifierFunction");

        // then
        assertThat(routerEvents.values().stream().map(TemplateJson::map).map(e -> map(e.get("Properties")))
                .map(p -> p.get("Method") + " " + p.get("Path")).toList())
                .contains("POST /v1/batches/uploads", "POST /v1/batches", "GET /v1/batches/{id}",
                        "DELETE /v1/batches/{id}", "POST /v1/batches/{id}/cancel", "POST /v1/batches/{id}/retry",
                        "GET /v1/batches/{id}/output", "GET /v1/batches/{id}/errors");
        assertThat(map(map(function("RouterFunction").get("Environment")).get("Variables")))
                .containsEntry("GPUPIPE_ROUTER_BATCH_QUEUE_URL", Map.of("Ref", "BatchQueue"));
        Map<String, Object> finished = map(map(map(map(notifier.get("Events")).get("BatchFinished"))
                .get("Properties")).get("Filter"));
        assertThat(finished.toString()).contains("batches/").contains("/final.json");
        assertThat(map(map(notifier.get("Environment")).get("Variables")))
                .containsEntry("GPUPIPE_NOTIFIER_BATCH_QUEUE_URL", Map.of("Ref", "BatchQueue"));
    }

    @Test
    void iamCallerScope_shouldReachTheRouterThroughTheSharedVariable_roleByDefault() {
        Map<String, Object> scope = sam.findParameters("IamCallerScope").get("IamCallerScope");

        assertThat(scope).containsEntry("Default", IamCallerScope.DEFAULT.name().toLowerCase(java.util.Locale.ROOT));
        assertThat(list(scope.get("AllowedValues"))).containsExactlyInAnyOrderElementsOf(Stream.of(
                IamCallerScope.values()).map(v -> v.name().toLowerCase(java.util.Locale.ROOT)).toList());
        assertThat(map(map(function("RouterFunction").get("Environment")).get("Variables")))
                .containsEntry(IamCallerScope.ENV_VAR, Map.of("Ref", "IamCallerScope"));
    }

    private static Map<String, Object> function(String name) {
        return properties(sam.findResources("AWS::Serverless::Function").entrySet().stream()
                .filter(e -> e.getKey().contains(name)).findFirst().orElseThrow().getValue());
    }

    private static void assertDeniesInsecureTransport(Map<String, Object> policy) {
        assertThat(list(policy.get("Statement"))).anySatisfy(s -> assertThat(map(s))
                .containsEntry("Effect", "Deny")
                .containsEntry("Principal", "*")
                .containsEntry("Condition", Map.of("Bool", Map.of("aws:SecureTransport", "false"))));
    }
}
