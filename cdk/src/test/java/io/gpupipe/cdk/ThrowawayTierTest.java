package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.routing.Classifier;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.model.routing.RoutingThresholds;
import io.gpupipe.model.scaling.ScalingLadder;
import io.gpupipe.worker.throwaway.ThrowawayTier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * Adding a tier is data: the {@code medium} tier of {@link ThrowawayTier} is one entry appended to tiers.json and one
 * model file beside native-build/models/*.env, nothing else, and with those two inputs alone it routes, sizes its
 * scaling, synthesizes its own service with the model its file pins (no context needed) and gets its SAM blocks. Its
 * worker consuming its queue: gpu-worker's ThrowawayTierWorkerTest; its SAM blocks through AWS's SAM translator:
 * SamTranslatedTemplateTest.
 */
class ThrowawayTierTest {
    private static final Tier MEDIUM = ThrowawayTier.MEDIUM;

    @Test
    void medium_shouldRoute_whenARequestNamesItOrTheClassifierPicksIt() {
        TierCatalogue catalogue = ThrowawayTier.catalogue();
        var parser = new JobRequestParser(UUID::randomUUID, catalogue);
        InferenceJob routed = ((JobRequestParser.Outcome.Valid) parser.parse(
                "{\"prompt\":\"hello\",\"route\":\"medium\"}", JobRequestParser.Source.API)).job();
        InferenceJob ambiguous = ((JobRequestParser.Outcome.Valid) parser.parse(
                "{\"prompt\":\"" + "p".repeat(800) + "\"}", JobRequestParser.Source.API)).job();
        Classifier picksMedium = job -> java.util.Optional.of(MEDIUM);

        RoutingPolicy policy = new RoutingPolicy(RoutingThresholds.DEFAULTS, picksMedium, catalogue);

        assertThat(policy.route(routed).tier()).isEqualTo(MEDIUM);
        assertThat(policy.route(ambiguous).tier()).isEqualTo(MEDIUM);
        assertThat(catalogue.serving(Task.GENERATE)).contains(MEDIUM);
    }

    @Test
    void medium_shouldScaleAndSynthesize_fromItsCatalogueEntryAndModelFileAlone(@TempDir Path temp) {
        TierCatalogue catalogue = ThrowawayTier.catalogue();
        TierDefinition medium = catalogue.get(MEDIUM);
        assertThat(ScalingLadder.defaults(medium).maxScaleOutStep()).isEqualTo(6);
        Path models = ThrowawayTier.modelsDirectory(ModelEnvFile.locate(), temp.resolve("models"));

        // no context: every tier's commit and image tag come from its model file, as .ci/run synthesizes
        Template gpu = Template.fromStack(GpupipeApp.build(new App(), Tiers.of(catalogue, models)).worker());

        gpu.resourceCountIs("AWS::ECS::Service", catalogue.tiers().size());
        gpu.hasResourceProperties("AWS::ECS::Service", Match.objectLike(Map.of(
                "ServiceName", Map.of("Fn::ImportValue", "gpupipe-service-name-medium"))));
        gpu.hasResourceProperties("AWS::ECS::CapacityProvider", Match.objectLike(Map.of("ManagedInstancesProvider",
                Match.objectLike(Map.of("InstanceLaunchTemplate", Match.objectLike(Map.of("InstanceRequirements",
                        Match.objectLike(Map.of("AcceleratorCount", Map.of("Min", 2, "Max", 2))))))))));
        Map<String, Object> worker = TemplateJson.list(TemplateJson.container(gpu, "medium", "gpu-worker")
                .get("Environment")).stream().map(TemplateJson::map)
                .collect(java.util.stream.Collectors.toMap(e -> String.valueOf(e.get("Name")), e -> e.get("Value")));
        assertThat(worker).containsEntry("GPUPIPE_WORKER_TIER", "medium")
                .containsEntry("GPUPIPE_WORKER_QUEUE_URL", Map.of("Fn::ImportValue", "gpupipe-queue-url-medium"))
                .containsEntry("GPUPIPE_WORKER_MODEL_VERSION", "Qwen/Qwen2.5-14B-Instruct-AWQ@"
                        + "1111111111111111111111111111111111111111+medium-qwen2.5-14b-instruct-awq-1");
        assertThat(String.valueOf(gpu.findResources("AWS::ApplicationAutoScaling::ScalableTarget")))
                .contains("gpupipe-max-tasks-medium");
    }

    @Test
    void medium_shouldGetItsSamBlocks_fromTheGenerator() throws IOException {
        String template = Files.readString(SamTemplateTiersTest.TEMPLATE);

        String withMedium = SamTierBlocks.render(template, ThrowawayTier.catalogue());

        assertThat(withMedium).contains("  MediumQueue:\n    Type: AWS::SQS::Queue",
                "  MediumVisibilityTimeout:\n    Type: Number\n    Default: 600",
                "  MediumMaxTasks:\n    Type: Number\n    Default: 6",
                "  HasMediumModelVersion: !Not",
                "GPUPIPE_ROUTER_QUEUE_URLS_MEDIUM: !Ref MediumQueue",
                "GPUPIPE_BATCH_TIER_QUEUE_URLS_MEDIUM: !Ref MediumQueue",
                "GPUPIPE_SCALING_TIERS_MEDIUM_SERVICE: !Sub \"${ClusterName}-medium\"",
                "Resource: !GetAtt MediumQueue.Arn",
                "Name: !Sub \"${AWS::StackName}-queue-url-medium\"");
        // and nothing else of the template changed: removing the tier again gives the file back
        assertThat(SamTierBlocks.render(withMedium, TierCatalogue.bundled())).isEqualTo(template);
    }

    @Test
    void tiersJava_shouldNameNoTier_becauseANewTierIsDataOnly() throws IOException {
        for (String source : List.of("Tiers.java", "ModelEnvFile.java", "SamTierBlocks.java", "GpupipeApp.java")) {
            String code = Files.readString(Path.of("src", "main", "java", "io", "gpupipe", "cdk", source));
            assertThat(code).as(source).doesNotContainPattern("\"(small|large|speech)\"");
        }
    }
}
