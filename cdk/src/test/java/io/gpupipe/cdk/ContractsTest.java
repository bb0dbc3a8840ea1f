package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.serving.VllmServeCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** The GPU side as vLLM, ECS and EC2 enforce their contracts (docs/contracts.md). */
class ContractsTest {
    private static Template gpu;
    private static Template network;

    @BeforeAll
    static void synthesize() {
        gpu = SynthesizedApp.get().gpu;
        network = SynthesizedApp.get().network;
    }

    @Test
    void modelServer_shouldServeThePinnedPathWithPriorityScheduling_soJobPrioritiesAreAccepted() {
        // when
        List<Object> command = list(container("small", "model-server").get("Command"));

        // then: vLLM rejects a non-zero priority unless --scheduling-policy priority
        assertThat(command.get(command.indexOf("--scheduling-policy") + 1)).isEqualTo("priority");
        List<Object> expected = new ArrayList<>(List.of("/models/" + SynthesizedApp.SMALL_REVISION));
        expected.addAll(TierTask.serveCommand(Tiers.of("small")).args());
        assertThat(command).isEqualTo(expected);
        assertThat(TierTask.serveCommand(Tiers.of("small")).args()).containsSequence("--scheduling-policy",
                VllmServeCommand.SCHEDULING_POLICY);
    }

    @Test
    void worker_shouldBeToldTheExactWeightsAndTheRootThatProvesThem() {
        // when
        Map<String, Object> env = environment("large", "gpu-worker");

        // then
        assertThat(env).containsEntry("GPUPIPE_WORKER_MODEL_VERSION", "Qwen/Qwen2.5-72B-Instruct-AWQ@"
                + SynthesizedApp.LARGE_REVISION + "+" + Tiers.of("large").modelServerImageTag())
                .containsEntry("GPUPIPE_WORKER_OPENAI_EXPECTED_MODEL_ROOT", "/models/" + SynthesizedApp.LARGE_REVISION);
    }

    @Test
    void worker_shouldBeToldHowManySequencesItsModelServerRuns_soItsWindowKeepsEverySlotBusy() {
        // the worker's window used to be 16 for every tier, while vLLM ran --max-num-seqs 32 (small), 64 (large):
        // half or three quarters of the GPU's batch stayed empty, and the speech server's 8 were overfilled
        for (String tier : new String[] {"small", "large"}) {
            List<Object> command = list(container(tier, "model-server").get("Command"));
            String maxNumSeqs = command.get(command.indexOf("--max-num-seqs") + 1).toString();
            assertThat(environment(tier, "gpu-worker")).as(tier)
                    .containsEntry("GPUPIPE_WORKER_MODEL_SERVER_SLOTS", maxNumSeqs)
                    .doesNotContainKey("GPUPIPE_WORKER_MAX_IN_FLIGHT"); // the worker derives it (WindowSizing)
        }
        assertThat(environment("speech", "gpu-worker")).containsEntry("GPUPIPE_WORKER_MODEL_SERVER_SLOTS",
                Integer.toString(Tiers.of("speech").model().maxConcurrentSequences()));
    }

    @Test
    void synth_shouldFailReadably_whenATiersRevisionIsNotACommit() {
        for (String revision : new String[] {"main", "0123456789ABCDEF0123456789ABCDEF01234567", "abc123"}) {
            App app = new App(AppProps.builder().context(Map.of("smallModelRevision", revision,
                    "largeModelRevision", SynthesizedApp.LARGE_REVISION,
                    "speechModelRevision", SynthesizedApp.SPEECH_REVISION)).build());
            assertThatThrownBy(() -> GpupipeApp.build(app)).as(revision)
                    .hasMessageStartingWith("tier small: model revision of Qwen/Qwen2.5-7B-Instruct-AWQ "
                            + "must be a commit: 40 lower-case hex digits, got \"" + revision + "\"")
                    .hasMessageContaining("-c smallModelRevision=<commit>");
        }
    }

    @Test
    void capacityProviders_shouldGiveTasksStorageForUnpackingTheirImage() {
        // when
        Map<String, Long> storage = gpu.findResources("AWS::ECS::CapacityProvider").entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().substring(0, e.getKey().indexOf("Tier")).toLowerCase(),
                        e -> ((Number) map(map(map(properties(e.getValue()).get("ManagedInstancesProvider"))
                                .get("InstanceLaunchTemplate")).get("StorageConfiguration")).get("StorageSizeGiB"))
                                .longValue()));

        // then: the 70B image (~32 GiB of weights on a ~20 GiB vLLM image) needs more than the 80 GiB default
        assertThat(storage.get("large")).isEqualTo(Tiers.of("large").taskStorageGiB()).isGreaterThan(80);
        assertThat(storage.get("small")).isEqualTo(80);
        assertThat(storage.get("speech")).isEqualTo(Tiers.of("speech").taskStorageGiB()).isEqualTo(80);
    }

    @Test
    void securityGroups_shouldSendOnlyHttps_asTheirDescriptionsSay() {
        gpu.findResources("AWS::EC2::SecurityGroup").values().forEach(sg -> {
            Map<String, Object> props = properties(sg);
            assertThat(String.valueOf(props.get("GroupDescription"))).endsWith("outbound HTTPS only");
            assertThat(list(props.get("SecurityGroupEgress"))).singleElement().satisfies(rule -> assertThat(map(rule))
                    .containsEntry("IpProtocol", "tcp").containsEntry("FromPort", 443).containsEntry("ToPort", 443));
        });
        gpu.resourceCountIs("AWS::EC2::SecurityGroupEgress", 0);
    }

    @Test
    void network_shouldGiveInstancesANatPath_andKeepTasksIsolated() {
        // then: one NAT gateway; tasks in subnets without a default route, instances in subnets with one
        network.resourceCountIs("AWS::EC2::NatGateway", 1);
        network.allResourcesProperties("AWS::EC2::Subnet", Match.objectLike(Map.of("MapPublicIpOnLaunch", false)));
        List<String> instanceSubnets = instanceSubnetImports();
        List<String> taskSubnets = gpu.findResources("AWS::ECS::Service").values().stream()
                .flatMap(s -> list(map(map(properties(s).get("NetworkConfiguration")).get("AwsvpcConfiguration"))
                        .get("Subnets")).stream())
                .map(String::valueOf).distinct().toList();
        assertThat(instanceSubnets).isNotEmpty().allMatch(s -> s.contains("instances"));
        assertThat(taskSubnets).isNotEmpty().allMatch(s -> s.contains("tasks"));
    }

    @Test
    void fractionalTier_shouldSelectTheG6fSizeOfItsSlice_andBeSizedToThatSlice() {
        // given a half-GPU tier: a 7B AWQ model with 8 sequences fits 12 GB
        TierSpec half = Tiers.of("small").withModel(io.gpupipe.cdk.sizing.ModelFootprint.builder("mistral-7b-awq")
                        .parameters(7_240_000_000L).bytesPerParameter(0.5).layers(32, 4096)
                        .groupedQueryAttention(8, 32).maxSequenceLength(4096).maxConcurrentSequences(8).build(),
                io.gpupipe.model.sizing.GpuShare.of("0.5")).withModelRevision(SynthesizedApp.SMALL_REVISION);

        // when
        Template template = Template.fromStack(workerStack(half));

        // then: ECS gets "0.5", EC2 may pick only g6f.4xlarge (half an L4), no whole-GPU minima
        Map<String, Object> requirements = map(map(map(properties(template.findResources(
                "AWS::ECS::CapacityProvider").values().iterator().next()).get("ManagedInstancesProvider"))
                .get("InstanceLaunchTemplate")).get("InstanceRequirements"));
        assertThat(requirements.get("AllowedInstanceTypes")).isEqualTo(List.of("g6f.4xlarge"));
        assertThat(requirements).doesNotContainKeys("AcceleratorTotalMemoryMiB", "AcceleratorCount");
        Map<String, Object> modelServer = list(properties(template.findResources("AWS::ECS::TaskDefinition")
                .values().iterator().next()).get("ContainerDefinitions")).stream().map(TemplateJson::map)
                .filter(c -> "model-server".equals(c.get("Name"))).findFirst().orElseThrow();
        assertThat(modelServer.get("ResourceRequirements")).isEqualTo(List.of(Map.of("Type", "GPU", "Value", "0.5")));
        assertThat(half.budget().availableBytes()).isEqualTo(22_888L * 1024 * 1024 / 2);
    }

    @Test
    void fractionalTier_shouldFailSynthesisReadably_whenNoG6fSizeOfItsSliceHoldsTheTask() {
        // given an eighth of an L4 (g6f.large: 2 vCPU, 8 GiB; g6f.xlarge: 4 vCPU, 16 GiB) for a model that fits its
        // 2.8 GiB, but the small tier's task (3 vCPU, 24 GiB, plus the agent's share)
        TierSpec eighth = Tiers.of("small").withModel(io.gpupipe.cdk.sizing.ModelFootprint.builder("qwen2.5-0.5b")
                        .parameters(494_000_000L).bytesPerParameter(2).layers(24, 896).groupedQueryAttention(2, 14)
                        .maxSequenceLength(2048).maxConcurrentSequences(4).build(),
                io.gpupipe.model.sizing.GpuShare.of("0.125")).withModelRevision(SynthesizedApp.SMALL_REVISION);

        // then: no instance could ever be launched, so synthesis says why instead of deploying a stuck service
        assertThatThrownBy(() -> workerStack(eighth)).hasMessage("tier small: GPU share 0.125 runs only on "
                + "g6f.large (2 vCPU, 8 GiB), g6f.xlarge (4 vCPU, 16 GiB), but the task needs 4 vCPU and 28 GiB (its "
                + "taskCpu and taskMemoryMiB plus the agent's share): lower them in tiers.json or ask for a larger "
                + "share");
    }

    @Test
    void fractionalTier_shouldFailTheSizingGate_whenTheModelNeedsMoreThanItsSlice() {
        // given the default small tier's 32 sequences (7 GiB of KV cache, 5.2 GiB of weights) on half an L4 (11.2 GiB)
        TierSpec half = Tiers.of("small").withModel(Tiers.of("small").model(), io.gpupipe.model.sizing.GpuShare.of("0.5"))
                .withModelRevision(SynthesizedApp.SMALL_REVISION);

        assertThatThrownBy(() -> workerStack(half)).hasMessageContaining("GPU share 0.5 of 22.4 GiB gives 11.2 GiB");
    }

    private static WorkerStack workerStack(TierSpec tier) {
        App app = new App();
        NetworkStack net = new NetworkStack(app, "network", null);
        RegistryStack registry = new RegistryStack(app, "registry", null, List.of(tier.tier()));
        return new WorkerStack(app, "gpu", null, net.getVpc(), registry.getWorkerRepository(),
                registry.getModelServerRepository(),
                new WorkerStack.Inputs(new SamExports("gpupipe"), List.of(tier), Optional.of("test"),
                        Optional.empty()));
    }

    private static List<String> instanceSubnetImports() {
        return gpu.findResources("AWS::ECS::CapacityProvider").values().stream()
                .flatMap(cp -> list(map(map(map(properties(cp).get("ManagedInstancesProvider"))
                        .get("InstanceLaunchTemplate")).get("NetworkConfiguration")).get("Subnets")).stream())
                .map(String::valueOf).distinct().toList();
    }

    private static Map<String, Object> environment(String tier, String name) {
        return list(container(tier, name).get("Environment")).stream().map(TemplateJson::map)
                .collect(Collectors.toMap(e -> (String) e.get("Name"), e -> e.get("Value")));
    }

    private static Map<String, Object> container(String tier, String name) {
        return TemplateJson.container(gpu, tier, name);
    }
}
