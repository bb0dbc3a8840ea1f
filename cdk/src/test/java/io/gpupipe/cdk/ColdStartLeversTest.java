package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.container;
import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.scaling.WarmCapacity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Template;

/**
 * The cold-start levers as deploy options (docs/cold-start.md): weights streamed from S3, the worker started with
 * its model server, and a warm-pool Auto Scaling group in place of Managed Instances.
 */
class ColdStartLeversTest {
    static final String WEIGHTS_BUCKET = "gpupipe-model-weights";
    /** Every lever on: small streams and starts its worker early; large streams and runs on a warm pool. */
    static final Map<String, String> LEVERS = Map.of(
            "modelWeightsBucket", WEIGHTS_BUCKET,
            "smallWeights", "s3",
            "smallFastReadiness", "true",
            "largeWeights", "s3",
            "largeFastReadiness", "true",
            "largeWarmPool", "true",
            "largeInstanceType", "g6e.48xlarge");
    private static Template gpu;

    @BeforeAll
    static void synthesize() {
        gpu = synthesize(LEVERS);
    }

    @Test
    void streamedWeights_shouldBeServedFromTheirStagedPrefix_byTheRunAiStreamer() {
        // when
        List<Object> small = list(container(gpu, "small", "model-server").get("Command"));
        List<Object> large = list(container(gpu, "large", "model-server").get("Command"));

        // then: the S3 URI is the served path (vLLM reports it as the root the worker checks); TP 8 streams
        // distributed, one shard set per GPU worker
        String smallRoot = "s3://" + WEIGHTS_BUCKET + "/models/Qwen/Qwen2.5-7B-Instruct-AWQ/"
                + SynthesizedApp.SMALL_REVISION + "/";
        assertThat(small.get(0)).isEqualTo(smallRoot);
        assertThat(small.get(small.indexOf("--load-format") + 1)).isEqualTo("runai_streamer");
        assertThat(small.get(small.indexOf("--model-loader-extra-config") + 1)).isEqualTo("{\"concurrency\":16}");
        assertThat(large.get(large.indexOf("--model-loader-extra-config") + 1))
                .isEqualTo("{\"concurrency\":16,\"distributed\":true}");
        assertThat(environment(container(gpu, "small", "gpu-worker")))
                .containsEntry("GPUPIPE_WORKER_OPENAI_EXPECTED_MODEL_ROOT", smallRoot);
        assertThat(environment(container(gpu, "small", "model-server"))).containsKey("AWS_REGION")
                .containsEntry("HF_HUB_OFFLINE", "1");
    }

    @Test
    void streamedWeights_shouldUseTheLeanImage_andMayReadOnlyTheirModelsPrefix() {
        // then: the image without weights
        assertThat(String.valueOf(container(gpu, "small", "model-server").get("Image")))
                .contains(":" + Tiers.of("small").modelServerImageTag() + ModelWeights.LEAN_TAG_SUFFIX);
        // and a read grant on exactly the model's staged prefix
        String grants = TemplateJson.policyStatements(gpu).toString();
        assertThat(grants).contains(WEIGHTS_BUCKET + "/models/Qwen/Qwen2.5-7B-Instruct-AWQ/"
                + SynthesizedApp.SMALL_REVISION + "/*");
        assertThat(grants).doesNotContain(WEIGHTS_BUCKET + "/*\"");
    }

    @Test
    void fastReadiness_shouldStartTheWorkerWithTheModelServer_andCheckOnlyItsLiveness() {
        // when
        Map<String, Object> worker = container(gpu, "small", "gpu-worker");
        Map<String, Object> baseline = container(SynthesizedApp.get().gpu, "small", "gpu-worker");

        // then: START instead of HEALTHY; the container check tolerates the model load (liveness, long start)
        assertThat(list(worker.get("DependsOn"))).containsExactly(Map.of("Condition", "START",
                "ContainerName", "model-server"));
        Map<String, Object> health = map(worker.get("HealthCheck"));
        assertThat(list(health.get("Command")).toString()).contains("/q/health/live");
        assertThat(((Number) health.get("StartPeriod")).intValue()).isEqualTo(300);
        assertThat(list(baseline.get("DependsOn"))).containsExactly(Map.of("Condition", "HEALTHY",
                "ContainerName", "model-server"));
        assertThat(list(map(baseline.get("HealthCheck")).get("Command")).toString()).contains("/q/health/ready");
    }

    @Test
    void warmPool_shouldKeepStoppedPrePulledInstances_forTheLargeTierOnly() {
        // then: one group, its warm pool stopped and one instance deep, never reused on scale-in (ECS forbids it)
        Map<String, Object> pool = properties(single("AWS::AutoScaling::WarmPool"));
        assertThat(pool).containsEntry("PoolState", "Stopped").containsEntry("MaxGroupPreparedCapacity", 1);
        assertThat(String.valueOf(pool.get("InstanceReusePolicy"))).contains("ReuseOnScaleIn=false");
        Map<String, Object> group = properties(single("AWS::AutoScaling::AutoScalingGroup"));
        assertThat(group).containsEntry("MinSize", "0").containsEntry("NewInstancesProtectedFromScaleIn", true);
        assertThat(String.valueOf(group.get("AutoScalingGroupName")))
                .contains("gpupipe-service-name-large", WarmCapacity.GROUP_SUFFIX);
        String template = properties(single("AWS::EC2::LaunchTemplate")).toString();
        assertThat(template).contains("InstanceType=g6e.48xlarge", "ECS_WARM_POOLS_CHECK=true",
                "ECS_IMAGE_PULL_BEHAVIOR=prefer-cached", "target-lifecycle-state", "docker pull",
                "complete-lifecycle-action", WarmPoolCapacity.LIFECYCLE_HOOK, "VolumeType=gp3");
        assertThat(properties(single("AWS::AutoScaling::LifecycleHook")))
                .containsEntry("LifecycleTransition", "autoscaling:EC2_INSTANCE_LAUNCHING")
                .containsEntry("DefaultResult", "CONTINUE");
    }

    @Test
    void warmPool_shouldBeTheLargeServicesOnlyCapacity_onEc2WithManagedTerminationProtection() {
        // then: an Auto Scaling group provider with managed scaling and termination protection
        List<Map<String, Object>> providers = gpu.findResources("AWS::ECS::CapacityProvider").values().stream()
                .map(TemplateJson::properties).toList();
        List<Map<String, Object>> asgProviders = providers.stream()
                .filter(p -> p.containsKey("AutoScalingGroupProvider")).toList();
        assertThat(asgProviders).hasSize(1);
        assertThat(asgProviders.get(0).toString()).contains("ManagedTerminationProtection=ENABLED",
                "Status=ENABLED", "TargetCapacity=100");
        assertThat(providers.stream().filter(p -> p.containsKey("ManagedInstancesProvider")))
                .hasSize(Tiers.defaults().size() - 1);
        // the large task definition runs on EC2, the others on Managed Instances
        gpu.findResources("AWS::ECS::TaskDefinition").forEach((id, definition) ->
                assertThat(properties(definition).get("RequiresCompatibilities")).as(id)
                        .isEqualTo(List.of(id.startsWith("LargeTier") ? "EC2" : "MANAGED_INSTANCES")));
    }

    @Test
    void levers_shouldBeRefusedReadably_whenTheirContextIsIncomplete() {
        Map<String, String> noBucket = new HashMap<>(LEVERS);
        noBucket.remove("modelWeightsBucket");
        assertThatThrownBy(() -> synthesize(noBucket)).hasMessageContaining("-c modelWeightsBucket=");
        Map<String, String> noType = new HashMap<>(LEVERS);
        noType.remove("largeInstanceType");
        assertThatThrownBy(() -> synthesize(noType)).hasMessageContaining("-c largeInstanceType=");
        Map<String, String> spot = new HashMap<>(LEVERS);
        spot.put("largeSpot", "true");
        assertThatThrownBy(() -> synthesize(spot)).hasMessageContaining("exclude each other");
        assertThatThrownBy(() -> synthesize(Map.of("smallWeights", "blob")))
                .hasMessageContaining("-c smallWeights must be image or s3");
    }

    private static Template synthesize(Map<String, String> levers) {
        Map<String, Object> context = new HashMap<>(SynthesizedApp.REVISIONS);
        context.putAll(levers);
        return Template.fromStack(GpupipeApp.build(new App(AppProps.builder().context(context).build())).worker());
    }

    private static Map<String, Object> single(String type) {
        Map<String, Map<String, Object>> found = gpu.findResources(type);
        assertThat(found).as(type).hasSize(1);
        return found.values().iterator().next();
    }

    private static Map<String, Object> environment(Map<String, Object> container) {
        Map<String, Object> env = new HashMap<>();
        list(container.get("Environment")).forEach(e -> env.put(String.valueOf(map(e).get("Name")),
                map(e).get("Value")));
        return env;
    }
}
