package io.gpupipe.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The platform figures of one catalogue tier (instance price, model speed, weights, network, engine start), read from
 * {@code tier-figures.json} with a source for each, next to the tier's catalogue definition (task ceiling, scaling
 * ladder). Override one with {@code --set <tier>.<name>=<value>}.
 *
 * @param definition         the catalogue's tier
 * @param instanceType       the instance the figures describe (for tables)
 * @param pricePerHour       On-Demand instance price, $/h (the Managed Instances fee comes on top, {@link Platform})
 * @param slowdown           how much slower than the reference model the tier generates
 * @param weightsGiB         the model's safetensors
 * @param networkGiBps       the instance's network bandwidth, which caps streaming weights from S3
 * @param engineStartSeconds vLLM from weights in GPU memory to answering: profiling, KV cache, torch.compile, CUDA
 *                           graph capture, API server start
 */
public record TierFigures(TierDefinition definition, String instanceType, Figure pricePerHour, Figure slowdown,
                          Figure weightsGiB, Figure networkGiBps, Figure engineStartSeconds) {
    static final String RESOURCE = "/io/gpupipe/simulator/tier-figures.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    public TierFigures {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(instanceType, "instanceType");
    }

    public Tier tier() {
        return definition.tier();
    }

    /** The figures of every tier the bundled file describes that the catalogue has, in catalogue order. */
    public static Map<Tier, TierFigures> bundled(TierCatalogue catalogue) {
        try (InputStream in = TierFigures.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("classpath resource " + RESOURCE + " is missing");
            }
            return read(JSON.readTree(in), catalogue);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    static Map<Tier, TierFigures> read(JsonNode root, TierCatalogue catalogue) {
        JsonNode tiers = root.path("tiers");
        Map<Tier, TierFigures> figures = new LinkedHashMap<>();
        tiers.fieldNames().forEachRemaining(name -> {
            if (catalogue.find(name).isEmpty()) {
                throw new IllegalArgumentException(RESOURCE + ": tier " + name + " is not in the tier catalogue ("
                        + catalogue.describeNames() + ")");
            }
        });
        for (TierDefinition definition : catalogue.tiers()) {
            JsonNode node = tiers.get(definition.tier().wireName());
            if (node != null) {
                String where = RESOURCE + " tier " + definition.tier();
                figures.put(definition.tier(), new TierFigures(definition, text(node, "instanceType", where),
                        figure(node, "pricePerHour", where), figure(node, "slowdown", where),
                        figure(node, "weightsGiB", where), figure(node, "networkGiBps", where),
                        figure(node, "engineStartSeconds", where)));
            }
        }
        return Collections.unmodifiableMap(figures);
    }

    private static Figure figure(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || !value.path("value").isNumber() || !value.path("source").isTextual()) {
            throw new IllegalArgumentException(where + ": " + field + " needs {\"value\": <number>, \"source\": "
                    + "\"<where it comes from>\"}");
        }
        return new Figure(value.get("value").asDouble(), value.get("source").asText());
    }

    private static String text(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException(where + ": " + field + " is required");
        }
        return value.asText();
    }

    /** A copy with the figure {@code name} set to {@code value}. */
    TierFigures with(String name, double value) {
        return switch (name) {
            case "pricePerHour" -> new TierFigures(definition, instanceType, pricePerHour.withValue(value), slowdown,
                    weightsGiB, networkGiBps, engineStartSeconds);
            case "slowdown" -> new TierFigures(definition, instanceType, pricePerHour, slowdown.withValue(value),
                    weightsGiB, networkGiBps, engineStartSeconds);
            case "weightsGiB" -> new TierFigures(definition, instanceType, pricePerHour, slowdown,
                    weightsGiB.withValue(value), networkGiBps, engineStartSeconds);
            case "networkGiBps" -> new TierFigures(definition, instanceType, pricePerHour, slowdown, weightsGiB,
                    networkGiBps.withValue(value), engineStartSeconds);
            case "engineStartSeconds" -> new TierFigures(definition, instanceType, pricePerHour, slowdown,
                    weightsGiB, networkGiBps, engineStartSeconds.withValue(value));
            default -> throw new IllegalArgumentException("unknown tier figure '" + name + "'; known: pricePerHour, "
                    + "slowdown, weightsGiB, networkGiBps, engineStartSeconds");
        };
    }
}
