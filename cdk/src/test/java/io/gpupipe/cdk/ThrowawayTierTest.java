package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobRequestParser;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.routing.Classifier;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.model.routing.RoutingThresholds;
import io.gpupipe.model.scaling.ScalingLadder;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * Adding a tier is data: a {@code medium} entry in a test copy of tiers.json (and, for the GPU side, the model it
 * serves) makes it route, size its scaling and synthesize its own service. The worker resolving its settings is
 * gpu-worker's WorkerSettingsTest; the scaling metric taking it up is scaling-metric's ScalingConfigEnvTest.
 */
class ThrowawayTierTest {
    /** The bundled tiers.json plus one entry, exactly as a developer would add it. */
    static TierCatalogue withMedium() throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root;
        try (InputStream in = TierCatalogue.class.getResourceAsStream(TierCatalogue.RESOURCE)) {
            root = (ObjectNode) json.readTree(in);
        }
        ((ArrayNode) root.get("tiers")).add(json.readTree("""
                {"name": "medium", "queue": "gpupipe-medium", "contract": "text", "serves": ["generate"],
                 "modelTimeoutSeconds": 450, "visibilityTimeoutSeconds": 600, "gpus": "2", "gpuMemoryMiB": 45056,
                 "taskCpu": 8192, "taskMemoryMiB": 65536, "maxTasks": 6, "backlogPerTask": 40, "maxScaleOutStep": 6,
                 "scaleInAfterMinutes": 7, "modelLoadGraceMinutes": 15}"""));
        return TierCatalogue.parse(json.writeValueAsString(root));
    }

    @Test
    void medium_shouldRoute_whenARequestNamesItOrTheClassifierPicksIt() throws IOException {
        TierCatalogue catalogue = withMedium();
        Tier medium = Tier.of("medium");
        var parser = new JobRequestParser(UUID::randomUUID, catalogue);
        InferenceJob routed = ((JobRequestParser.Outcome.Valid) parser.parse(
                "{\"prompt\":\"hello\",\"route\":\"medium\"}", JobRequestParser.Source.API)).job();
        InferenceJob ambiguous = ((JobRequestParser.Outcome.Valid) parser.parse(
                "{\"prompt\":\"" + "p".repeat(800) + "\"}", JobRequestParser.Source.API)).job();
        Classifier picksMedium = job -> java.util.Optional.of(medium);

        RoutingPolicy policy = new RoutingPolicy(RoutingThresholds.DEFAULTS, picksMedium, catalogue);

        assertThat(policy.route(routed).tier()).isEqualTo(medium);
        assertThat(policy.route(ambiguous).tier()).isEqualTo(medium);
        assertThat(catalogue.serving(Task.GENERATE)).contains(medium);
    }

    @Test
    void medium_shouldScaleAndSynthesize_withItsOwnQueueServiceAndCeiling() throws IOException {
        TierDefinition medium = withMedium().get(Tier.of("medium"));
        assertThat(ScalingLadder.defaults(medium).maxScaleOutStep()).isEqualTo(6);

        List<TierSpec> specs = withMedium().tiers().stream().map(t -> Tiers.spec(t,
                t.tier().wireName().equals("medium") ? Tiers.model("small") : Tiers.model(t.tier().wireName())))
                .toList();
        Map<String, Object> context = new HashMap<>(SynthesizedApp.REVISIONS);
        context.put("mediumModelRevision", SynthesizedApp.SMALL_REVISION);
        Template gpu = Template.fromStack(GpupipeApp.build(new App(AppProps.builder().context(context).build()),
                specs).worker());

        gpu.resourceCountIs("AWS::ECS::Service", 4);
        gpu.hasResourceProperties("AWS::ECS::Service", Match.objectLike(Map.of(
                "ServiceName", Map.of("Fn::ImportValue", "gpupipe-service-name-medium"))));
        gpu.hasResourceProperties("AWS::ECS::CapacityProvider", Match.objectLike(Map.of("ManagedInstancesProvider",
                Match.objectLike(Map.of("InstanceLaunchTemplate", Match.objectLike(Map.of("InstanceRequirements",
                        Match.objectLike(Map.of("AcceleratorCount", Map.of("Min", 2, "Max", 2))))))))));
        Map<String, Object> worker = TemplateJson.list(TemplateJson.container(gpu, "medium", "gpu-worker")
                .get("Environment")).stream().map(TemplateJson::map)
                .collect(java.util.stream.Collectors.toMap(e -> String.valueOf(e.get("Name")), e -> e.get("Value")));
        assertThat(worker).containsEntry("GPUPIPE_WORKER_TIER", "medium")
                .containsEntry("GPUPIPE_WORKER_QUEUE_URL", Map.of("Fn::ImportValue", "gpupipe-queue-url-medium"));
        assertThat(String.valueOf(gpu.findResources("AWS::ApplicationAutoScaling::ScalableTarget")))
                .contains("gpupipe-max-tasks-medium");
    }
}
