package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.sizing.GpuShare;
import io.gpupipe.cdk.sizing.ModelFootprint;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class SizingGateTest {
    private static final ModelFootprint LLAMA_70B_FP16 = ModelFootprint.builder("llama-2-70b-fp16")
            .parameters(70_000_000_000L)
            .bytesPerParameter(2)
            .layers(80, 8192)
            .groupedQueryAttention(8, 64)
            .maxSequenceLength(4096)
            .maxConcurrentSequences(8)
            .build();
    /** A 1.2B INT8 classifier: ≈ 3.3 GiB, so a quarter of a 24 GiB L4 (6 GiB) fits. */
    private static final ModelFootprint CLASSIFIER_INT8 = ModelFootprint.builder("classifier-1.2b-int8")
            .parameters(1_200_000_000L)
            .bytesPerParameter(1)
            .layers(24, 2048)
            .maxSequenceLength(2048)
            .maxConcurrentSequences(4)
            .overhead(0.10, 400L * 1024 * 1024)
            .build();

    private static Template fractional;

    @BeforeAll
    static void synthesizeFractionalTier() {
        TierSpec quarterOfL4 = new TierSpec(Tiers.of("small").tier(), CLASSIFIER_INT8, GpuShare.of("0.25"), 22 * 1024,
                2048, 8 * 1024, 4, "small-classifier-1", java.time.Duration.ofMinutes(5),
                java.time.Duration.ofMinutes(5), List.of(), "example/classifier", SynthesizedApp.SMALL_REVISION,
                io.gpupipe.model.ModelServerContract.TEXT, java.time.Duration.ofMinutes(10));
        fractional = Template.fromStack(workerStack(new App(), List.of(quarterOfL4)));
    }

    @Test
    void synth_shouldFailWithReadableMessage_when70bFp16OnOne48GbGpu() {
        // given: the large tier asking for one 48 GiB GPU for a 140 GB FP16 model
        TierSpec tooSmall = Tiers.of("large").withModel(LLAMA_70B_FP16, GpuShare.of("1"));

        // when, then
        assertThatThrownBy(() -> workerStack(new App(), List.of(pinned(Tiers.of("small")), pinned(tooSmall))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("VRAM sizing gate: tier large: llama-2-70b-fp16 needs ")
                .hasMessageContaining("weights 130.4")
                .hasMessageContaining("GPU share 1 of 44.0 GiB gives 44.0 GiB")
                .hasMessageContaining("short by");
    }

    @Test
    void synth_shouldPass_whenSame70bFp16ModelGetsEightGpus() {
        // given
        TierSpec enough = Tiers.of("large").withModel(LLAMA_70B_FP16, GpuShare.of("8"));

        // when
        WorkerStack stack = workerStack(new App(), List.of(pinned(enough)));

        // then
        assertThat(stack.getTiers()).hasSize(1);
    }

    @Test
    void defaultTiers_shouldFitTheirGpus_whenChecked() {
        // then
        Tiers.defaults().forEach(t -> assertThat(SizingGate.require(t).availableBytes()).isPositive());
    }

    @Test
    void fractionalTier_shouldAskEcsForTheExactFractionString_whenQuarterGpu() {
        // when
        Map<String, Object> modelServer = list(properties(fractional.findResources("AWS::ECS::TaskDefinition")
                .values().iterator().next()).get("ContainerDefinitions")).stream()
                .map(TemplateJson::map)
                .filter(c -> "model-server".equals(c.get("Name")))
                .findFirst().orElseThrow();

        // then: the string "0.25", one device, tensor parallel 1; the instance is the G6f size with a quarter L4
        assertThat(modelServer.get("ResourceRequirements")).isEqualTo(List.of(Map.of("Type", "GPU", "Value",
                "0.25")));
        List<Object> command = list(modelServer.get("Command"));
        assertThat(command.get(command.indexOf("--tensor-parallel-size") + 1)).isEqualTo("1");
        fractional.hasResourceProperties("AWS::ECS::CapacityProvider", Match.objectLike(Map.of(
                "ManagedInstancesProvider", Match.objectLike(Map.of("InstanceLaunchTemplate", Match.objectLike(
                        Map.of("InstanceRequirements", Match.objectLike(Map.of(
                                "AllowedInstanceTypes", List.of("g6f.2xlarge"))))))))));
        assertThat(map(modelServer.get("HealthCheck"))).containsEntry("StartPeriod", 300);
    }

    private static TierSpec pinned(TierSpec tier) {
        return tier.withModelRevision(SynthesizedApp.LARGE_REVISION);
    }

    private static WorkerStack workerStack(App app, List<TierSpec> tiers) {
        NetworkStack network = new NetworkStack(app, "network", null);
        RegistryStack registry = new RegistryStack(app, "registry", null, tiers.stream().map(TierSpec::tier).toList());
        return new WorkerStack(app, "gpu", null, network.getVpc(), registry.getWorkerRepository(),
                registry.getModelServerRepository(),
                new WorkerStack.Inputs(new SamExports("gpupipe"), tiers, Optional.of("test"), Optional.empty()));
    }
}
