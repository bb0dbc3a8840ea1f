package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.observability.MetricNamespace;
import io.gpupipe.model.seal.DeploymentKey;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class GpuStackTest {
    private static Template gpu;

    @BeforeAll
    static void synthesize() {
        gpu = SynthesizedApp.get().gpu;
    }

    @Test
    void cluster_shouldUseSamClusterNameAndEnhancedInsights_whenSynthesized() {
        // then
        gpu.hasResourceProperties("AWS::ECS::Cluster", Map.of(
                "ClusterName", Map.of("Fn::ImportValue", "gpupipe-cluster-name"),
                "ClusterSettings", List.of(Map.of("Name", "containerInsights", "Value", "enhanced"))));
    }

    @Test
    void capacityProviders_shouldSelectNvidiaGpusWithAutoRepair_whenOnePerTier() {
        // then
        gpu.resourceCountIs("AWS::ECS::CapacityProvider", Tiers.defaults().size());
        gpu.hasResourceProperties("AWS::ECS::CapacityProvider", Match.objectLike(Map.of("ManagedInstancesProvider",
                Match.objectLike(Map.of(
                        "AutoRepairConfiguration", Map.of("ActionsStatus", "ENABLED"),
                        "InstanceLaunchTemplate", Match.objectLike(Map.of("InstanceRequirements", Match.objectLike(
                                Map.of("AcceleratorManufacturers", List.of("nvidia"),
                                        "AcceleratorTypes", List.of("gpu"),
                                        "AcceleratorCount", Map.of("Min", 1, "Max", 1),
                                        "AcceleratorTotalMemoryMiB", Map.of("Min", 44 * 1024))))))))));
        gpu.hasResourceProperties("AWS::ECS::CapacityProvider", Match.objectLike(Map.of("ManagedInstancesProvider",
                Match.objectLike(Map.of("InstanceLaunchTemplate", Match.objectLike(Map.of("InstanceRequirements",
                        Match.objectLike(Map.of(
                                "AcceleratorCount", Map.of("Min", 8, "Max", 8),
                                "AcceleratorTotalMemoryMiB", Map.of("Min", 8 * 44 * 1024))))))))));
        gpu.allResourcesProperties("AWS::ECS::CapacityProvider", Match.objectLike(Map.of("ManagedInstancesProvider",
                Match.objectLike(Map.of("AutoRepairConfiguration", Map.of("ActionsStatus", "ENABLED"))))));
    }

    @Test
    void services_shouldStartAtZeroWithoutPublicIpsAndRollBack_whenSynthesized() {
        // then
        gpu.resourceCountIs("AWS::ECS::Service", Tiers.defaults().size());
        gpu.allResourcesProperties("AWS::ECS::Service", Match.objectLike(Map.of(
                "DesiredCount", 0,
                "DeploymentConfiguration", Match.objectLike(Map.of(
                        "DeploymentCircuitBreaker", Map.of("Enable", true, "Rollback", true))),
                "NetworkConfiguration", Map.of("AwsvpcConfiguration", Match.objectLike(Map.of(
                        "AssignPublicIp", "DISABLED"))),
                "CapacityProviderStrategy", Match.arrayWith(List.of(Match.objectLike(Map.of("Weight", 1)))))));
        gpu.hasResourceProperties("AWS::ECS::Service", Match.objectLike(Map.of(
                "ServiceName", Map.of("Fn::ImportValue", "gpupipe-service-name-small"))));
        gpu.hasResourceProperties("AWS::ECS::Service", Match.objectLike(Map.of(
                "ServiceName", Map.of("Fn::ImportValue", "gpupipe-service-name-large"))));
    }

    @Test
    void securityGroups_shouldAllowNoInbound_whenSynthesized() {
        // then
        gpu.findResources("AWS::EC2::SecurityGroup").values().forEach(sg ->
                assertThat(properties(sg)).doesNotContainKey("SecurityGroupIngress"));
        gpu.resourceCountIs("AWS::EC2::SecurityGroupIngress", 0);
    }

    @Test
    void taskDefinitions_shouldPairModelServerAndWorker_whenSynthesized() {
        // then
        gpu.allResourcesProperties("AWS::ECS::TaskDefinition", Match.objectLike(Map.of(
                "RequiresCompatibilities", List.of("MANAGED_INSTANCES"),
                "NetworkMode", "awsvpc",
                "ContainerDefinitions", Match.arrayWith(List.of(
                        Match.objectLike(Map.of(
                                "Name", "model-server",
                                "Environment", Match.arrayWith(List.of(
                                        Map.of("Name", "VLLM_ENABLE_CUDA_COMPATIBILITY", "Value", "1"))),
                                "HealthCheck", Match.objectLike(Map.of("StartPeriod", 300)))),
                        Match.objectLike(Map.of(
                                "Name", "gpu-worker",
                                "StopTimeout", 120,
                                "DependsOn", List.of(Map.of("ContainerName", "model-server",
                                        "Condition", "HEALTHY")),
                                "HealthCheck", Match.objectLike(Map.of("Command", Match.arrayWith(List.of(
                                        Match.stringLikeRegexp(".*/q/health/ready.*"))))))))))));
    }

    @Test
    void modelServer_shouldGetTheGpuShareAndTensorParallelism_whenLargeTierUsesEightGpus() {
        // when
        Map<String, Object> modelServer = container("large", "model-server");

        // then
        assertThat(modelServer.get("ResourceRequirements")).isEqualTo(List.of(Map.of("Type", "GPU", "Value", "8")));
        List<Object> command = list(modelServer.get("Command"));
        assertThat(command.get(command.indexOf("--tensor-parallel-size") + 1)).isEqualTo("8");
        assertThat(command.get(command.indexOf("--served-model-name") + 1)).isEqualTo("qwen2.5-72b-instruct-awq");
        assertThat(command.get(command.indexOf("--max-model-len") + 1)).isEqualTo("4096");
    }

    @Test
    void modelServerHealthCheck_shouldToleratePlannedLoadTime_whenLoadExceedsStartPeriodCap() {
        // given: the large tier plans 20 minutes of model load; ECS caps the start period at 300 s
        Map<String, Object> health = map(container("large", "model-server").get("HealthCheck"));
        long tolerated = ((Number) health.get("StartPeriod")).longValue()
                + ((Number) health.get("Interval")).longValue() * ((Number) health.get("Retries")).longValue();

        // then
        assertThat(tolerated).isGreaterThanOrEqualTo(20 * 60);
        assertThat(((Number) health.get("StartPeriod")).intValue()).isLessThanOrEqualTo(300);
        assertThat(((Number) health.get("Retries")).intValue()).isBetween(1, 10);
    }

    @Test
    void modelServerImage_shouldUseTheTagFromContext_whenSmallModelImageTagGiven() {
        // when
        String image = String.valueOf(container("small", "model-server").get("Image"));

        // then
        assertThat(image).endsWith(":" + SynthesizedApp.SMALL_MODEL_TAG + "]]}");
        assertThat(String.valueOf(container("large", "model-server").get("Image")))
                .contains(":" + Tiers.of("large").modelServerImageTag());
    }

    @Test
    void worker_shouldReadItsTierQueueFromSamExports_whenSynthesized() {
        // when
        Map<String, Object> env = list(container("small", "gpu-worker").get("Environment")).stream()
                .map(TemplateJson::map)
                .collect(Collectors.toMap(e -> (String) e.get("Name"), e -> e.get("Value")));

        // then
        assertThat(env).containsEntry("GPUPIPE_WORKER_TIER", "small")
                .containsEntry("GPUPIPE_WORKER_QUEUE_URL", Map.of("Fn::ImportValue", "gpupipe-queue-url-small"))
                .containsEntry("GPUPIPE_WORKER_DLQ_URL", Map.of("Fn::ImportValue", "gpupipe-dlq-url"))
                .containsEntry("GPUPIPE_WORKER_BUCKET", Map.of("Fn::ImportValue", "gpupipe-bucket-name"))
                .containsEntry("GPUPIPE_WORKER_BACKEND", "openai")
                .containsEntry("QUARKUS_REST_CLIENT_VLLM_URL", "http://127.0.0.1:8000")
                // SAM's MetricNamespace, exported by the serverless stack: the worker's EMF namespace
                .containsEntry(MetricNamespace.ENV_VAR, Map.of("Fn::ImportValue", "gpupipe-metric-namespace"));
    }

    @Test
    void iamPolicies_shouldUseWildcardResourcesOnlyWhereTheApiHasNoResource_whenSynthesized() {
        // given: the only actions AWS authorizes on "*" alone
        Set<String> resourceless = Set.of("ecs:DiscoverPollEndpoint", "ecr:GetAuthorizationToken");

        // when
        List<Object> wildcardActions = TemplateJson.policyStatements(gpu).stream()
                .filter(s -> list(s.get("Resource")).contains("*"))
                .flatMap(s -> list(s.get("Action")).stream())
                .toList();

        // then
        assertThat(wildcardActions).isNotEmpty().allMatch(resourceless::contains);
    }

    @Test
    void taskRole_shouldReachOnlyItsOwnTierQueue_whenSmallTier() {
        // when
        List<String> sqsResources = smallTaskRoleStatements().stream()
                .filter(s -> list(s.get("Action")).stream().anyMatch(a -> a.toString().startsWith("sqs:")))
                .flatMap(s -> TemplateJson.importedNames(s.get("Resource")).stream())
                .toList();

        // then
        assertThat(sqsResources).containsExactlyInAnyOrder("gpupipe-queue-arn-small", "gpupipe-dlq-arn")
                .doesNotContain("gpupipe-queue-arn-large");
    }

    @Test
    void taskRole_shouldWriteOnlyJobsResultsAndCachePrefixes_whenSmallTier() {
        // when
        List<String> putTargets = smallTaskRoleStatements().stream()
                .filter(s -> list(s.get("Action")).contains("s3:PutObject"))
                .map(s -> String.valueOf(s.get("Resource")))
                .toList();

        // then
        assertThat(putTargets).hasSize(3);
        assertThat(putTargets).anyMatch(r -> r.contains("/jobs/*")).anyMatch(r -> r.contains("/results/*"))
                .anyMatch(r -> r.contains("/cache/*"));
    }

    @Test
    void taskRole_shouldReadTheDeploymentKeySecretOnly_andTheWorkerBeToldItsArn_whenSmallTier() {
        // when
        List<Map<String, Object>> secretReads = smallTaskRoleStatements().stream()
                .filter(s -> list(s.get("Action")).stream().anyMatch(a -> a.toString().startsWith("secretsmanager:")))
                .toList();
        Map<String, Object> env = list(container("small", "gpu-worker").get("Environment")).stream()
                .map(TemplateJson::map)
                .collect(Collectors.toMap(e -> (String) e.get("Name"), e -> e.get("Value")));

        // then: GetSecretValue on the one secret the serverless stack exports, which the worker reads at start
        assertThat(secretReads).singleElement().satisfies(statement -> {
            assertThat(list(statement.get("Action"))).containsExactly("secretsmanager:GetSecretValue");
            assertThat(TemplateJson.importedNames(statement.get("Resource")))
                    .containsExactly("gpupipe-deployment-key-secret-arn");
        });
        assertThat(env).containsEntry(DeploymentKey.SECRET_ENV,
                Map.of("Fn::ImportValue", "gpupipe-deployment-key-secret-arn"));
    }

    private static List<Map<String, Object>> smallTaskRoleStatements() {
        return gpu.findResources("AWS::IAM::Policy").entrySet().stream()
                .filter(e -> e.getKey().startsWith("SmallTierTaskDefinitionTaskRole"))
                .flatMap(e -> list(map(properties(e.getValue()).get("PolicyDocument")).get("Statement")).stream())
                .map(TemplateJson::map)
                .toList();
    }

    private static Map<String, Object> container(String tier, String name) {
        return TemplateJson.container(gpu, tier, name);
    }
}
