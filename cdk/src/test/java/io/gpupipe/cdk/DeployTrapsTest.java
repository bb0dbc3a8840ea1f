package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.assertions.Template;

/**
 * What a deployment must not trip over: the GPU stacks in the SAM stack's region and named after it (one place:
 * samconfig.toml), a worker image tag that survives a redeploy without {@code -c workerImageTag} and never falls back
 * to one nobody pushed, no P-family instances picked by the GPU attributes, and model images of one tier never expired
 * by another tier's rebuilds.
 */
class DeployTrapsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void workerImageTag_shouldBeReadFromTheSsmParameterTheImageStepWrites_whenNoContextGiven() throws Exception {
        // given the app as synthesized without -c workerImageTag
        Template gpu = SynthesizedApp.get().gpu;
        Map<String, Map<String, Object>> parameters = gpu.findParameters("*", Map.of());

        // then one SSM-typed parameter names /gpupipe/<stack>/worker-image-tag, and each worker image uses it
        assertThat(parameters).containsKey("WorkerImageTag");
        assertThat(map(parameters.get("WorkerImageTag")))
                .containsEntry("Type", "AWS::SSM::Parameter::Value<String>")
                .containsEntry("Default", WorkerStack.workerImageTagParameter(SynthesizedApp.SAM_STACK))
                .containsEntry("Default", "/gpupipe/gpupipe/worker-image-tag");
        for (TierSpec tier : Tiers.defaults()) {
            assertThat(JSON.writeValueAsString(TemplateJson.container(gpu, tier.tier().wireName(), "gpu-worker")
                    .get("Image"))).as(tier.tier().wireName()).contains("{\"Ref\":\"WorkerImageTag\"}");
        }
        assertThat(JSON.writeValueAsString(gpu.toJSON())).doesNotContain("0.1.0");
    }

    @Test
    void workerImageTag_shouldBeTheContextsTag_andNoParameter_whenGiven() throws Exception {
        // given
        Map<String, Object> context = new HashMap<>(SynthesizedApp.REVISIONS);
        context.put("workerImageTag", "0123abcd4567");

        // when
        Template gpu = Template.fromStack(GpupipeApp.build(new App(AppProps.builder().context(context).build()))
                .worker());

        // then
        assertThat(gpu.findParameters("WorkerImageTag", Map.of())).isEmpty();
        assertThat(JSON.writeValueAsString(TemplateJson.container(gpu, "small", "gpu-worker").get("Image")))
                .contains(":0123abcd4567");
    }

    @Test
    void stacks_shouldBeNamedAfterTheSamConfigEnvironment_whenSamConfigEnvGiven() {
        // given the prod environment of samconfig.toml (stack_name gpupipe-prod)
        Map<String, Object> context = new HashMap<>(SynthesizedApp.REVISIONS);
        context.put("samConfigEnv", "prod");

        // when
        GpupipeApp.Stacks stacks = GpupipeApp.build(new App(AppProps.builder().context(context).build()));

        // then
        assertThat(stacks.network().getStackName()).isEqualTo("gpupipe-prod-network");
        assertThat(stacks.worker().getStackName()).isEqualTo("gpupipe-prod-gpu");
        assertThat(TemplateJson.importedNames(Template.fromStack(stacks.monitoring()).toJSON()))
                .isNotEmpty().allMatch(name -> name.startsWith("gpupipe-prod-"));
    }

    @Test
    void synthesis_shouldFailNamingTheEnvironment_whenSamConfigHasNoSuchEnvironment() {
        Map<String, Object> context = new HashMap<>(SynthesizedApp.REVISIONS);
        context.put("samConfigEnv", "staging");

        assertThatThrownBy(() -> GpupipeApp.build(new App(AppProps.builder().context(context).build())))
                .hasMessageContaining("samConfigEnv=staging").hasMessageContaining("[staging.*]");
    }

    @Test
    void samConfig_shouldGiveEachEnvironmentsStackAndRegion_asTheSamCliReadsThem() {
        // when
        SamConfig config = SamConfig.read(Path.of("..", SamConfig.FILE));

        // then
        assertThat(config.stackName("default")).contains("gpupipe");
        assertThat(config.region("default")).contains("us-east-1");
        assertThat(config.stackName("prod")).contains("gpupipe-prod");
        assertThat(config.region("prod")).contains("us-east-1");
        assertThat(SamConfig.parse("""
                # comment
                [eu.global.parameters]
                stack_name = "gp-eu"  # trailing comment
                [eu.deploy.parameters]
                region = "eu-west-1"
                """).region("eu")).contains("eu-west-1");
    }

    @Test
    void region_shouldBeTheSamStacksRegion_notTheCliProfiles_whenTheCliRunsTheApp() {
        // when the profile says eu-west-1 and samconfig.toml us-east-1
        Environment env = GpupipeApp.environment(Optional.of("us-east-1"), "123456789012", "eu-west-1");

        // then
        assertThat(env.getRegion()).isEqualTo("us-east-1");
        assertThat(env.getAccount()).isEqualTo("123456789012");
        assertThat(GpupipeApp.environment(Optional.of("us-east-1"), null, null)).as("offline: agnostic").isNull();
        assertThat(GpupipeApp.environment(Optional.empty(), "123456789012", "eu-west-1").getRegion())
                .as("no samconfig.toml: the profile's").isEqualTo("eu-west-1");
    }

    @Test
    void capacityProviders_shouldAllowOnlyGFamilyInstances_whenSelectingByGpuAttributes() {
        // given
        Template gpu = SynthesizedApp.get().gpu;

        // then every tier's provider lists its allowed types, and none is a P (or any non-G) family
        gpu.findResources("AWS::ECS::CapacityProvider").forEach((id, provider) -> {
            Map<String, Object> requirements = map(map(map(properties(provider).get("ManagedInstancesProvider"))
                    .get("InstanceLaunchTemplate")).get("InstanceRequirements"));
            List<Object> allowed = list(requirements.get("AllowedInstanceTypes"));
            assertThat(allowed).as(id).isNotEmpty()
                    .allSatisfy(type -> assertThat(String.valueOf(type)).as(id).matches("g[a-z0-9]*\\..*"));
        });
        assertThat(Tiers.of("small").allowedInstanceTypes()).containsExactly("g6e.*");
        assertThat(Tiers.of("speech").allowedInstanceTypes()).doesNotContain("g6e.*");
    }

    @Test
    void allowedInstanceTypes_shouldDefaultToTheGFamilies_whenTheModelFileNamesNone() {
        // given a tier whose model file has no INSTANCE_TYPES
        TierSpec spec = Tiers.of("small");
        TierSpec unlisted = new TierSpec(spec.tier(), spec.model(), spec.gpuShare(), spec.gpuMemoryMiB(),
                spec.taskCpu(), spec.taskMemoryMiB(), spec.maxScaleOutStep(), spec.modelServerImageTag(),
                spec.modelLoadGrace(), spec.scaleInAfter(), List.of(), spec.modelRepository(), spec.modelRevision(),
                spec.contract(), spec.p99SubmitToResult());

        // then
        assertThat(unlisted.allowedInstanceTypes()).isEqualTo(TierSpec.G_FAMILIES).noneMatch(t -> t.startsWith("p"));
        assertThat(TierService.instanceRequirements(unlisted).getAllowedInstanceTypes())
                .isEqualTo(TierSpec.G_FAMILIES);
    }

    @Test
    void warmPool_shouldRefuseAnInstanceTypeOutsideTheTiersList_whenSynthesized() {
        // given a warm pool asked for on a P instance
        Map<String, Object> context = new HashMap<>(SynthesizedApp.REVISIONS);
        context.putAll(Map.of("largeWarmPool", "true", "largeInstanceType", "p5.48xlarge"));

        // then
        assertThatThrownBy(() -> GpupipeApp.build(new App(AppProps.builder().context(context).build())))
                .hasMessageContaining("-c largeInstanceType=p5.48xlarge is none of the tier's allowed instance "
                        + "types [g6e.*]");
        assertThat(Tiers.of("large").allowsInstanceType("g6e.48xlarge")).isTrue();
        assertThat(Tiers.of("large").allowsInstanceType("g6ex48xlarge")).as("the dot is literal").isFalse();
        assertThat(Tiers.of("speech").allowsInstanceType("gr6.4xlarge")).isTrue();
    }

    @Test
    void modelRepository_shouldKeepEachTiersNewestImagesByItsOwnRule_soNoTiersRebuildExpiresAnother()
            throws Exception {
        // given
        Template registry = SynthesizedApp.get().registry;
        Map<String, Object> repository = registry.findResources("AWS::ECR::Repository").entrySet().stream()
                .filter(e -> e.getKey().startsWith("ModelServerRepository")).findFirst().orElseThrow().getValue();

        // when
        Map<String, Object> policy = map(JSON.readValue(String.valueOf(map(properties(repository)
                .get("LifecyclePolicy")).get("LifecyclePolicyText")), Map.class));
        List<Map<String, Object>> selections = list(policy.get("rules")).stream()
                .map(r -> map(map(r).get("selection"))).toList();

        // then: untagged ones expire; tagged ones only by their tier's prefix, never by a rule over all tags
        assertThat(selections).noneMatch(s -> "any".equals(s.get("tagStatus")));
        for (Tier tier : TierCatalogue.bundled().names()) {
            assertThat(selections).as(tier.wireName()).anySatisfy(s -> {
                assertThat(s).containsEntry("tagStatus", "tagged")
                        .containsEntry("countType", "imageCountMoreThan")
                        .containsEntry("countNumber", RegistryStack.MODEL_IMAGES_KEPT_PER_TIER);
                assertThat(list(s.get("tagPrefixList"))).containsExactly(tier.wireName() + "-");
            });
        }
    }

    @Test
    void everyTiersImageTag_shouldStartWithItsTiersPrefix_soItsLifecycleRuleCoversIt() {
        for (Tier tier : TierCatalogue.bundled().names()) {
            assertThat(Tiers.of(tier.wireName()).modelServerImageTag()).as(tier.wireName())
                    .startsWith(RegistryStack.tagPrefix(tier));
        }
    }
}
