package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.seal.DeploymentKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the deployment really is: sam-template.yaml after AWS's SAM translator ({@link SamTranslation}), checked
 * function by function: the event source mappings and notifications each function gets, its role's effective
 * permissions (inline statements plus the AWS managed policies the translator attaches) against one least-privilege
 * table, and every sample event in {@code functions/<module>/events/} against the source that function is given.
 */
class SamTranslatedTemplateTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Each function's logical id and module (functions/{module}/target/function.zip). */
    static final Map<String, String> FUNCTIONS = Map.of("RouterFunction", "router",
            "ResultNotifierFunction", "result-notifier", "ScalingMetricFunction", "scaling-metric",
            "RepairLoggerFunction", "repair-logger", "DeadLetterFunction", "dead-letter", "BatchFunction", "batch");
    private static final String BUCKET = "${ResultsBucket.Arn}";
    /** The notifier names the bucket by its name (a notification cycle otherwise; see the template). */
    private static final String BUCKET_BY_NAME = "arn:${AWS::Partition}:s3:::gpupipe-results-${StackUuid}";
    private static final String KMS_IF_SET = "if UseResultsKmsKey: kms:Decrypt ${ResultsKmsKeyArn}|"
            + "if UseResultsKmsKey: kms:GenerateDataKey ${ResultsKmsKeyArn}";
    private static final String ALARMS = "arn:${AWS::Partition}:cloudwatch:${AWS::Region}:${AWS::AccountId}:alarm:"
            + "${ClusterName}-*";
    private static final String LOGS = "logs:CreateLogGroup *|logs:CreateLogStream *|logs:PutLogEvents *";
    /** The deployment key: read by those that seal job messages (router, batch) or judge seals (dead-letter). */
    private static final String DEPLOYMENT_KEY = "secretsmanager:GetSecretValue ${DeploymentKeySecret}";

    /**
     * The least-privilege table: every action each function's role may take, on what ({@code <tier>} stands for each
     * catalogue tier). The README's claims hold here: the router reads {@code cache/*} and writes {@code results/*}.
     * Only the logs actions of AWSLambdaBasicExecutionRole and CloudWatch metric calls, which have no resource type,
     * are on "*".
     */
    static final Map<String, String> ALLOWED = Map.of(
            "RouterFunction", String.join("|", LOGS, "sqs:SendMessage ${BatchQueue.Arn}",
                    "sqs:SendMessage ${<tier>Queue.Arn}",
                    "s3:GetObject " + BUCKET + "/jobs/*", "s3:PutObject " + BUCKET + "/jobs/*",
                    "s3:DeleteObject " + BUCKET + "/jobs/*", "s3:PutObject " + BUCKET + "/payloads/*",
                    "s3:GetObject " + BUCKET + "/results/*", "s3:PutObject " + BUCKET + "/results/*",
                    "s3:GetObject " + BUCKET + "/cache/*",
                    "s3:GetObject " + BUCKET + "/batch-inputs/*", "s3:PutObject " + BUCKET + "/batch-inputs/*",
                    "s3:GetObject " + BUCKET + "/batches/*", "s3:PutObject " + BUCKET + "/batches/*",
                    "s3:DeleteObject " + BUCKET + "/batches/*", "s3:ListBucket " + BUCKET, KMS_IF_SET,
                    "if UseBedrock: bedrock:InvokeModel arn:${AWS::Partition}:bedrock:*::foundation-model/"
                            + "${BedrockModelId}",
                    "if UseBedrock: bedrock:InvokeModel arn:${AWS::Partition}:bedrock:${AWS::Region}:"
                            + "${AWS::AccountId}:inference-profile/${BedrockModelId}",
                    "if UseWake: lambda:InvokeFunction ${ScalingMetricFunction.Arn}",
                    // each caller's limits (docs/security.md): job slots claimed create-only, read and freed
                    // If-Match; the ledger of unfinished batches read, then written over the version read
                    "s3:GetObject " + BUCKET + "/quotas/*", "s3:PutObject " + BUCKET + "/quotas/*",
                    "s3:DeleteObject " + BUCKET + "/quotas/*",
                    // GET /v1/usage: settled days' summaries read, or made once
                    "s3:GetObject " + BUCKET + "/usage/summaries/*", "s3:PutObject " + BUCKET + "/usage/summaries/*",
                    DEPLOYMENT_KEY),
            "ResultNotifierFunction", String.join("|", LOGS, "sqs:SendMessage ${FunctionFailureQueue.Arn}",
                    "sns:Publish arn:${AWS::Partition}:sns:${AWS::Region}:${AWS::AccountId}:${SuccessTopic.TopicName}",
                    "sns:Publish arn:${AWS::Partition}:sns:${AWS::Region}:${AWS::AccountId}:${ErrorTopic.TopicName}",
                    "sqs:SendMessage ${BatchQueue.Arn}",
                    "s3:GetObject " + BUCKET_BY_NAME + "/results/*",
                    "s3:GetObject " + BUCKET_BY_NAME + "/notifications/*",
                    "s3:PutObject " + BUCKET_BY_NAME + "/notifications/*",
                    "s3:GetObject " + BUCKET_BY_NAME + "/batches/*", "s3:PutObject " + BUCKET_BY_NAME + "/batches/*",
                    "s3:DeleteObject " + BUCKET_BY_NAME + "/batches/*", "s3:ListBucket " + BUCKET_BY_NAME,
                    "kms:Decrypt ${TopicKey.Arn}", "kms:GenerateDataKey ${TopicKey.Arn}",
                    "sqs:SendMessage ${CallbackRetryQueue.Arn}", "sqs:ReceiveMessage ${CallbackRetryQueue.Arn}",
                    "sqs:DeleteMessage ${CallbackRetryQueue.Arn}", "sqs:GetQueueAttributes ${CallbackRetryQueue.Arn}",
                    "secretsmanager:GetSecretValue ${CallbackSecret}", KMS_IF_SET,
                    // releases when a result or a batch's final record lands: the slot the job's marker names,
                    // the batch's ledger entry
                    "s3:GetObject " + BUCKET_BY_NAME + "/quotas/*", "s3:PutObject " + BUCKET_BY_NAME + "/quotas/*",
                    "s3:DeleteObject " + BUCKET_BY_NAME + "/quotas/*", "s3:GetObject " + BUCKET_BY_NAME + "/jobs/*",
                    // one usage record per result; a late one takes its day's summary back
                    "s3:PutObject " + BUCKET_BY_NAME + "/usage/records/*",
                    "s3:DeleteObject " + BUCKET_BY_NAME + "/usage/summaries/*"),
            "ScalingMetricFunction", String.join("|", LOGS, "sqs:GetQueueAttributes ${<tier>Queue.Arn}",
                    "ecs:DescribeServices arn:${AWS::Partition}:ecs:${AWS::Region}:${AWS::AccountId}:service/"
                            + "${ClusterName}/*",
                    "cloudwatch:PutMetricData *", "cloudwatch:GetMetricData *",
                    // the wake (docs/cold-start.md): the tier's service, its to-zero alarm, its warm-pool group
                    "ecs:UpdateService arn:${AWS::Partition}:ecs:${AWS::Region}:${AWS::AccountId}:service/"
                            + "${ClusterName}/*",
                    "cloudwatch:DescribeAlarms " + ALARMS, "cloudwatch:DisableAlarmActions " + ALARMS,
                    "cloudwatch:EnableAlarmActions " + ALARMS, "autoscaling:DescribeAutoScalingGroups *",
                    "autoscaling:SetDesiredCapacity arn:${AWS::Partition}:autoscaling:${AWS::Region}:"
                            + "${AWS::AccountId}:autoScalingGroup:*:autoScalingGroupName/${ClusterName}-*"),
            "RepairLoggerFunction", String.join("|", LOGS, "sqs:SendMessage ${FunctionFailureQueue.Arn}",
                    "sns:Publish arn:${AWS::Partition}:sns:${AWS::Region}:${AWS::AccountId}:${AlarmTopic.TopicName}",
                    "kms:Decrypt ${TopicKey.Arn}", "kms:GenerateDataKey ${TopicKey.Arn}"),
            "DeadLetterFunction", String.join("|", LOGS, "sqs:ReceiveMessage ${JobDeadLetterQueue.Arn}",
                    "sqs:DeleteMessage ${JobDeadLetterQueue.Arn}", "sqs:GetQueueAttributes ${JobDeadLetterQueue.Arn}",
                    "s3:GetObject " + BUCKET + "/jobs/*", "s3:PutObject " + BUCKET + "/results/*",
                    "s3:ListBucket " + BUCKET, KMS_IF_SET, DEPLOYMENT_KEY),
            "BatchFunction", String.join("|", LOGS, "sqs:SendMessage ${<tier>Queue.Arn}",
                    "sqs:ReceiveMessage ${BatchQueue.Arn}", "sqs:DeleteMessage ${BatchQueue.Arn}",
                    "sqs:GetQueueAttributes ${BatchQueue.Arn}", "sqs:SendMessage ${BatchQueue.Arn}",
                    "s3:GetObject " + BUCKET + "/batch-inputs/*", "s3:GetObject " + BUCKET + "/batches/*",
                    "s3:PutObject " + BUCKET + "/batches/*", "s3:DeleteObject " + BUCKET + "/batches/*",
                    "s3:GetObject " + BUCKET + "/jobs/*", "s3:PutObject " + BUCKET + "/jobs/*",
                    "s3:DeleteObject " + BUCKET + "/jobs/*", "s3:PutObject " + BUCKET + "/payloads/*",
                    "s3:GetObject " + BUCKET + "/results/*", "s3:GetObject " + BUCKET + "/quotas/*",
                    "s3:PutObject " + BUCKET + "/quotas/*", "s3:ListBucket " + BUCKET, KMS_IF_SET, DEPLOYMENT_KEY));
    /**
     * Actions allowed on "*": they have no resource type (CloudWatch metrics, DescribeAutoScalingGroups: Service
     * Authorization Reference) or are Lambda's own log writes.
     */
    private static final Set<String> UNSCOPED = Set.of("logs:CreateLogGroup", "logs:CreateLogStream",
            "logs:PutLogEvents", "cloudwatch:PutMetricData", "cloudwatch:GetMetricData",
            "autoscaling:DescribeAutoScalingGroups");

    private static JsonNode resources;

    @BeforeAll
    static void translate() throws IOException, InterruptedException {
        resources = SamTranslation.translate(SamTemplateTiersTest.TEMPLATE, Path.of("target", "sam-translated.json"))
                .get("Resources");
    }

    @Test
    void functions_shouldBeExactlyTheTablesOnes() {
        assertThat(ofType("AWS::Lambda::Function").keySet()).containsExactlyInAnyOrderElementsOf(FUNCTIONS.keySet());
    }

    @Test
    void eventSourceMappings_shouldBeTheQueuesEachFunctionConsumes_withTheirBatching() {
        Map<String, String> expected = Map.of(
                "DeadLetterFunction", "{\"BatchSize\":10,\"EventSourceArn\":\"${JobDeadLetterQueue.Arn}\","
                        + "\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"]}",
                "BatchFunction", "{\"BatchSize\":1,\"EventSourceArn\":\"${BatchQueue.Arn}\","
                        + "\"FunctionResponseTypes\":[\"ReportBatchItemFailures\"],"
                        + "\"ScalingConfig\":{\"MaximumConcurrency\":10}}",
                "ResultNotifierFunction", "{\"BatchSize\":5,\"EventSourceArn\":\"${CallbackRetryQueue.Arn}\","
                        + "\"ScalingConfig\":{\"MaximumConcurrency\":2}}");

        Map<String, String> actual = new TreeMap<>();
        for (JsonNode mapping : ofType("AWS::Lambda::EventSourceMapping").values()) {
            var properties = (com.fasterxml.jackson.databind.node.ObjectNode) mapping.get("Properties").deepCopy();
            String function = aliasTarget(properties.remove("FunctionName"));
            properties.put("EventSourceArn", SamTranslation.render(properties.get("EventSourceArn")));
            assertThat(actual.put(function, canonical(properties))).as("one mapping per function").isNull();
        }

        Map<String, String> wanted = new TreeMap<>();
        expected.forEach((function, json) -> wanted.put(function, canonical(read(json))));
        assertThat(actual).isEqualTo(wanted);
    }

    @Test
    void partialBatchResponses_shouldBeOn_exactlyForHandlersReturningSqsBatchResponse() throws IOException {
        for (JsonNode mapping : ofType("AWS::Lambda::EventSourceMapping").values()) {
            String function = aliasTarget(mapping.get("Properties").get("FunctionName"));
            boolean reports = mapping.get("Properties").path("FunctionResponseTypes").toString()
                    .contains("ReportBatchItemFailures");

            boolean returnsBatchResponse = handlerSources(FUNCTIONS.get(function))
                    .anyMatch(code -> code.contains("RequestHandler<SQSEvent, SQSBatchResponse>"));

            assertThat(reports).as("%s: ReportBatchItemFailures set exactly when its handler returns an "
                    + "SQSBatchResponse (else Lambda deletes a batch whose failures it reports)", function)
                    .isEqualTo(returnsBatchResponse);
        }
    }

    @Test
    void s3Notifications_shouldSendResultsAndFinishedBatchesToTheNotifier_only() {
        JsonNode configurations = resources.get("ResultsBucket").get("Properties").get("NotificationConfiguration")
                .get("LambdaConfigurations");
        Set<String> actual = new TreeSet<>();
        for (JsonNode configuration : configurations) {
            actual.add(configuration.get("Event").asText() + " " + filter(configuration) + " -> "
                    + aliasTarget(configuration.get("Function")));
        }
        assertThat(actual).containsExactlyInAnyOrder(
                "s3:ObjectCreated:* prefix=results/,suffix=.json -> ResultNotifierFunction",
                "s3:ObjectCreated:* prefix=batches/,suffix=/final.json -> ResultNotifierFunction");
        assertThat(resources.get("ResultsBucket").get("Properties").get("BucketName").toString())
                .isEqualTo(bucketNameExpression());
    }

    @Test
    void schedulesAndRules_shouldTriggerTheScalingMetricEveryMinute_andTheRepairLoggerOnInstanceChanges() {
        Map<String, String> actual = new TreeMap<>();
        for (JsonNode rule : ofType("AWS::Events::Rule").values()) {
            JsonNode properties = rule.get("Properties");
            String trigger = properties.has("ScheduleExpression") ? properties.get("ScheduleExpression").asText()
                    : properties.get("EventPattern").get("source") + " " + properties.get("EventPattern")
                    .get("detail-type");
            actual.put(aliasTarget(properties.get("Targets").get(0).get("Arn")), trigger);
        }
        assertThat(actual).containsExactlyInAnyOrderEntriesOf(Map.of(
                "ScalingMetricFunction", "rate(1 minute)",
                "RepairLoggerFunction", "[\"aws.ecs\"] [\"ECS Container Instance State Change\","
                        + "\"ECS Container Instance Health Change\"]"));
    }

    @Test
    void roles_shouldGrantExactlyTheLeastPrivilegeTable() throws IOException {
        Map<String, JsonNode> managed = managedPolicies();
        for (String function : FUNCTIONS.keySet()) {
            JsonNode role = resources.get(function + "Role").get("Properties");
            List<String> granted = new ArrayList<>();
            for (JsonNode arn : role.path("ManagedPolicyArns")) {
                JsonNode policy = managed.get(arn.asText());
                assertThat(policy).as("%s: managed policy %s is in .ci/sam-managed-policies.json", function, arn)
                        .isNotNull();
                policy.get("Statement").forEach(s -> granted.addAll(pairs("", s)));
            }
            for (JsonNode policy : role.path("Policies")) {
                for (JsonNode statement : policy.get("PolicyDocument").get("Statement")) {
                    if (statement.has("Fn::If")) {
                        granted.addAll(pairs("if " + statement.get("Fn::If").get(0).asText() + ": ",
                                statement.get("Fn::If").get(1)));
                    } else {
                        granted.addAll(pairs("", statement));
                    }
                }
            }

            assertThat(new TreeSet<>(granted)).as(function).isEqualTo(allowed(function));
            assertThat(granted).as("%s: no wildcard action", function).noneMatch(p -> action(p).contains("*"));
            assertThat(granted).as("%s: '*' only where no resource type exists", function)
                    .filteredOn(p -> p.endsWith(" *")).allMatch(p -> UNSCOPED.contains(action(p)));
        }
    }

    @Test
    void deploymentKey_shouldBeAGeneratedSecret_readableAndNamedOnlyWhereMessagesAreSealedOrJudged() {
        // given: the functions that seal job messages (router, batch) or judge their seals (dead-letter); the worker
        // is the CDK app's (GpuStackTest)
        Set<String> readers = Set.of("RouterFunction", "BatchFunction", "DeadLetterFunction");
        JsonNode secret = resources.get("DeploymentKeySecret");

        // then: a random secret of at least 32 bytes, created by the template
        assertThat(secret.get("Type").asText()).isEqualTo("AWS::SecretsManager::Secret");
        assertThat(secret.at("/Properties/GenerateSecretString/PasswordLength").asInt())
                .isGreaterThanOrEqualTo(DeploymentKey.MIN_BYTES);
        // and no role but the readers' names it; each reader is told the secret by the one env var
        List<String> naming = new ArrayList<>();
        resources.fields().forEachRemaining(r -> {
            if (r.getValue().get("Type").asText().equals("AWS::IAM::Role")
                    && r.getValue().toString().contains("DeploymentKeySecret")) {
                naming.add(r.getKey());
            }
        });
        assertThat(naming).containsExactlyInAnyOrderElementsOf(readers.stream().map(f -> f + "Role").toList());
        for (String function : readers) {
            assertThat(resources.get(function).at("/Properties/Environment/Variables/" + DeploymentKey.SECRET_ENV)
                    .toString()).as(function).contains("DeploymentKeySecret");
        }
    }

    @Test
    void sampleEvents_shouldHaveTheShapeOfTheSourceEachFunctionIsGiven() throws IOException {
        for (Map.Entry<String, String> function : FUNCTIONS.entrySet()) {
            Path events = Path.of("..", "functions", function.getValue(), "events");
            try (Stream<Path> files = Files.list(events)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                    List<String> problems = EventShapes.check(function.getKey(), read(Files.readString(file)),
                            resources);
                    assertThat(problems).as("%s (%s)", file, function.getKey()).isEmpty();
                }
            }
        }
    }

    private static Set<String> allowed(String function) {
        Set<String> allowed = new TreeSet<>();
        for (String entry : ALLOWED.get(function).split("\\|")) {
            if (entry.contains("<tier>")) {
                for (TierDefinition tier : TierCatalogue.bundled().tiers()) {
                    allowed.add(entry.replace("<tier>", SamTierBlocks.logicalName(tier.tier())));
                }
            } else {
                allowed.add(entry);
            }
        }
        return allowed;
    }

    private static List<String> pairs(String condition, JsonNode statement) {
        assertThat(statement.get("Effect").asText()).isEqualTo("Allow");
        List<String> out = new ArrayList<>();
        for (JsonNode action : array(statement.get("Action"))) {
            for (JsonNode resource : array(statement.get("Resource"))) {
                out.add(condition + action.asText() + " " + SamTranslation.render(resource));
            }
        }
        return out;
    }

    private static String action(String pair) {
        String unconditional = pair.startsWith("if ") ? pair.substring(pair.indexOf(": ") + 2) : pair;
        return unconditional.substring(0, unconditional.indexOf(' '));
    }

    private static List<JsonNode> array(JsonNode node) {
        List<JsonNode> out = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(out::add);
        } else {
            out.add(node);
        }
        return out;
    }

    private static Map<String, JsonNode> managedPolicies() throws IOException {
        Map<String, JsonNode> byArn = new TreeMap<>();
        JsonNode file = read(Files.readString(Path.of("..", ".ci", "sam-managed-policies.json")));
        file.get("policies").forEach(p -> byArn.put(p.get("Arn").asText(), p));
        return byArn;
    }

    static Map<String, JsonNode> ofType(String type) {
        Map<String, JsonNode> out = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = resources.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> resource = it.next();
            if (type.equals(resource.getValue().get("Type").asText())) {
                out.put(resource.getKey(), resource.getValue());
            }
        }
        return out;
    }

    /** {@code {"Ref": "RouterFunctionAliaslive"}} → RouterFunction (every event goes to the live alias). */
    static String aliasTarget(JsonNode reference) {
        String ref = reference.get("Ref").asText();
        assertThat(ref).as("events go to the published alias").endsWith("Aliaslive");
        return ref.substring(0, ref.length() - "Aliaslive".length());
    }

    static String filter(JsonNode configuration) {
        List<String> rules = new ArrayList<>();
        configuration.get("Filter").get("S3Key").get("Rules").forEach(r -> rules.add(r.get("Name").asText() + "="
                + r.get("Value").asText()));
        return String.join(",", rules);
    }

    private static String bucketNameExpression() {
        return "{\"Fn::Join\":[\"-\",[\"gpupipe-results\",{\"Fn::Select\":[2,{\"Fn::Split\":[\"/\","
                + "{\"Ref\":\"AWS::StackId\"}]}]}]]}";
    }

    private static Stream<String> handlerSources(String module) throws IOException {
        Pattern handler = Pattern.compile(".*Handler\\.java");
        try (Stream<Path> files = Files.walk(Path.of("..", "functions", module, "src", "main", "java"))) {
            List<String> sources = new ArrayList<>();
            for (Path file : files.filter(f -> handler.matcher(f.getFileName().toString()).matches()).toList()) {
                sources.add(Files.readString(file));
            }
            return sources.stream();
        }
    }

    private static String canonical(JsonNode node) {
        try {
            return JSON.writer().with(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                    .writeValueAsString(JSON.treeToValue(node, Object.class));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
