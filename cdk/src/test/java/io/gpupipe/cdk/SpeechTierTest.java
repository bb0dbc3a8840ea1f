package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.container;
import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * Seed 000's speech tier, shape for shape: its own queue (the SAM export) feeds a worker whose model server is
 * vLLM-Omni with baked, pinned Qwen3-TTS weights, on one NVIDIA GPU of at least 20 GB (no T4, no V100).
 */
class SpeechTierTest {
    private final Template gpu = SynthesizedApp.get().gpu;

    @Test
    void speechTier_shouldRunVllmOmniWithPinnedOfflineWeights_besideAWorkerOnTheSpeechQueue() {
        Map<String, Object> modelServer = container(gpu, "speech", "model-server");
        List<Object> command = list(modelServer.get("Command"));
        assertThat(command.get(0)).isEqualTo("/models/" + SynthesizedApp.SPEECH_REVISION);
        assertThat(command).contains("--omni", "--deploy-config", TierTask.QWEN3_TTS_DEPLOY_CONFIG)
                .doesNotContain("--scheduling-policy", "--max-model-len");
        assertThat(environment(modelServer)).containsEntry("TRANSFORMERS_OFFLINE", "1")
                .containsEntry("HF_HUB_OFFLINE", "1").containsEntry("VLLM_ENABLE_CUDA_COMPATIBILITY", "1");
        assertThat(list(modelServer.get("ResourceRequirements"))).containsExactly(Map.of("Type", "GPU",
                "Value", "1"));

        Map<String, Object> worker = environment(container(gpu, "speech", "gpu-worker"));
        assertThat(worker).containsEntry("GPUPIPE_WORKER_TIER", "speech")
                .containsEntry("GPUPIPE_WORKER_QUEUE_URL", Map.of("Fn::ImportValue", "gpupipe-queue-url-speech"))
                .containsEntry("GPUPIPE_WORKER_WARM_UP_TASK", "speech")
                .containsEntry("GPUPIPE_WORKER_OPENAI_SPEECH_MODEL", "qwen3-tts-1.7b-customvoice")
                .containsEntry("GPUPIPE_WORKER_OPENAI_EXPECTED_MODEL_ROOT", "/models/"
                        + SynthesizedApp.SPEECH_REVISION);
    }

    @Test
    void speechTier_shouldSelectOneNvidiaGpuOfAtLeast20GB_withItsOwnServiceAndScaling() {
        gpu.hasResourceProperties("AWS::ECS::CapacityProvider", Match.objectLike(Map.of("ManagedInstancesProvider",
                Match.objectLike(Map.of("InstanceLaunchTemplate", Match.objectLike(Map.of("InstanceRequirements",
                        Match.objectLike(Map.of(
                                "AcceleratorManufacturers", List.of("nvidia"),
                                "AcceleratorCount", Map.of("Min", 1, "Max", 1),
                                // T4 and V100 have 16 GB; EC2 reports an A10G/L4 as about 22,900-24,600 MiB
                                "AcceleratorTotalMemoryMiB", Map.of("Min", 20 * 1024))))))))));
        gpu.hasResourceProperties("AWS::ECS::Service", Match.objectLike(Map.of(
                "ServiceName", Map.of("Fn::ImportValue", "gpupipe-service-name-speech"))));
        assertThat(gpu.findResources("AWS::ApplicationAutoScaling::ScalableTarget").values().stream()
                .map(t -> String.valueOf(t)).collect(Collectors.joining())).contains("gpupipe-max-tasks-speech");
    }

    private static Map<String, Object> environment(Map<String, Object> container) {
        return list(container.get("Environment")).stream().map(TemplateJson::map)
                .collect(Collectors.toMap(e -> String.valueOf(e.get("Name")), e -> e.get("Value")));
    }
}
