package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.map;
import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * A YAML template cannot read shared-model's tier catalogue, so this test makes drift a failure: every catalogue
 * tier has its queue (with the catalogue's visibility timeout as the parameter default), its MaxTasks and
 * BacklogPerTask parameters (catalogue defaults), its ModelVersion parameter (empty: no result cache until a deployment
 * sets it), the router's and scaling metric's env vars and the exports the
 * CDK app imports; and the template configures no tier the catalogue lacks.
 */
class SamTemplateTiersTest {
    private static final TierCatalogue CATALOGUE = TierCatalogue.bundled();
    private static Template sam;
    private static final String TEMPLATE_TEXT = read();

    private static String read() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("..", "sam-template.yaml"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @BeforeAll
    static void load() {
        sam = SamTemplateTest.include();
    }

    @Test
    void template_shouldDefineEveryCatalogueTier_withTheCataloguesDefaults() {
        Map<String, Map<String, Object>> parameters = sam.findParameters("*");
        Map<String, Object> router = environment("GPUPIPE_ROUTER_");
        Map<String, Object> scaling = environment("GPUPIPE_SCALING_");
        Map<String, Object> batch = environment("GPUPIPE_BATCH_");
        for (TierDefinition tier : CATALOGUE.tiers()) {
            String name = capitalized(tier.tier().wireName());
            String env = tier.tier().envName();
            Map<String, Object> queue = sam.findResources("AWS::SQS::Queue").get(name + "Queue");
            assertThat(queue).as("resource %sQueue", name).isNotNull();
            assertThat(properties(queue).get("VisibilityTimeout"))
                    .isEqualTo(Map.of("Ref", name + "VisibilityTimeout"));
            assertThat(number(parameters, name + "VisibilityTimeout")).as(name + "VisibilityTimeout")
                    .isEqualTo(tier.visibilityTimeout().toSeconds());
            assertThat(number(parameters, name + "MaxTasks")).as(name + "MaxTasks").isEqualTo(tier.maxTasks());
            assertThat(number(parameters, name + "BacklogPerTask")).as(name + "BacklogPerTask")
                    .isEqualTo((long) tier.backlogPerTask());
            assertThat(router.get("GPUPIPE_ROUTER_QUEUE_URLS_" + env)).isEqualTo("!Ref " + name + "Queue");
            // set only when the parameter is (the router's configuration refuses an empty value)
            assertThat(router.get("GPUPIPE_ROUTER_MODEL_VERSIONS_" + env)).isEqualTo("!If [Has" + name
                    + "ModelVersion, !Ref " + name + "ModelVersion, !Ref AWS::NoValue]");
            assertThat(parameters.get(name + "ModelVersion")).as(name + "ModelVersion").containsEntry("Default", "");
            assertThat(batch.get("GPUPIPE_BATCH_TIER_QUEUE_URLS_" + env)).isEqualTo("!Ref " + name + "Queue");
            assertThat(scaling.get("GPUPIPE_SCALING_TIERS_" + env + "_QUEUE_URL")).isEqualTo("!Ref " + name + "Queue");
            assertThat(scaling).containsKeys("GPUPIPE_SCALING_TIERS_" + env + "_CLUSTER",
                    "GPUPIPE_SCALING_TIERS_" + env + "_SERVICE");
            assertThat(sam.findOutputs("*")).containsKeys(name + "QueueUrl", name + "QueueArn", name + "QueueName",
                    name + "MaxTasks", name + "ServiceName");
        }
    }

    @Test
    void template_shouldConfigureNoTierTheCatalogueLacks() {
        int tiers = CATALOGUE.tiers().size();
        assertThat(environment("GPUPIPE_ROUTER_").keySet().stream()
                .filter(k -> k.startsWith("GPUPIPE_ROUTER_QUEUE_URLS_"))).hasSize(tiers);
        assertThat(environment("GPUPIPE_ROUTER_").keySet().stream()
                .filter(k -> k.startsWith("GPUPIPE_ROUTER_MODEL_VERSIONS_"))).hasSize(tiers);
        assertThat(environment("GPUPIPE_SCALING_").keySet().stream()
                .filter(k -> k.startsWith("GPUPIPE_SCALING_TIERS_") && k.endsWith("_QUEUE_URL"))).hasSize(tiers);
        assertThat(environment("GPUPIPE_BATCH_").keySet().stream()
                .filter(k -> k.startsWith("GPUPIPE_BATCH_TIER_QUEUE_URLS_"))).hasSize(tiers);
        // every tier queue plus the DLQ, the callback retry queue, the function-failure queue, the batch queue and
        // its DLQ
        assertThat(sam.findResources("AWS::SQS::Queue")).hasSize(tiers + 5);
    }

    /**
     * The functions' environment variables as written ({@code NAME: !Ref X}); read from the YAML text because
     * CfnInclude keeps the SAM functions dehydrated. The GPUPIPE_ROUTER_/GPUPIPE_SCALING_ prefixes tell the
     * functions apart.
     */
    private static Map<String, Object> environment(String prefix) {
        Map<String, Object> env = new java.util.LinkedHashMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^\\s+(" + prefix + "[A-Z_]+): (.+)$")
                .matcher(TEMPLATE_TEXT);
        while (m.find()) {
            env.put(m.group(1), m.group(2).strip());
        }
        return env;
    }

    private static long number(Map<String, Map<String, Object>> parameters, String name) {
        Map<String, Object> parameter = parameters.get(name);
        assertThat(parameter).as("parameter " + name).isNotNull();
        return Long.parseLong(String.valueOf(parameter.get("Default")));
    }

    private static String capitalized(String tier) {
        return tier.substring(0, 1).toUpperCase(Locale.ROOT) + tier.substring(1);
    }
}
