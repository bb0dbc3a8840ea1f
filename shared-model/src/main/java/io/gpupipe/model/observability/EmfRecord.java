package io.gpupipe.model.observability;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One CloudWatch Embedded Metric Format document: metrics, their dimensions and extra properties, rendered as a
 * single JSON line for stdout, where Lambda and the ECS awslogs driver pick it up. Hand-written (no Powertools or
 * aws-embedded-metrics reflection) so it works in native images.
 */
public final class EmfRecord {
    /** CloudWatch units used by gpupipe, with the name CloudWatch expects (MetricDatum.Unit). */
    public enum Unit {
        Count("Count"), Milliseconds("Milliseconds"), Percent("Percent"), None("None"),
        CountPerSecond("Count/Second");

        private final String cloudWatchName;

        Unit(String cloudWatchName) {
            this.cloudWatchName = cloudWatchName;
        }

        public String cloudWatchName() {
            return cloudWatchName;
        }
    }

    private final String namespace;
    private final Map<String, String> dimensions = new LinkedHashMap<>();
    private final Map<String, Object> metrics = new LinkedHashMap<>();
    private final Map<String, Unit> units = new LinkedHashMap<>();
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<List<String>> rollUps = new ArrayList<>();

    private EmfRecord(String namespace) {
        this.namespace = namespace;
    }

    public static EmfRecord namespace(String namespace) {
        return new EmfRecord(namespace);
    }

    public EmfRecord dimension(String name, String value) {
        dimensions.put(name, value == null ? "none" : value);
        return this;
    }

    public EmfRecord metric(String name, double value, Unit unit) {
        metrics.put(name, value);
        units.put(name, unit);
        return this;
    }

    /**
     * Also publish every metric aggregated over only these dimensions (a second dimension set of the same record):
     * e.g. per tier across outcomes, which is what percentiles per tier need. Each name must be a dimension.
     */
    public EmfRecord rollUp(String... dimensionNames) {
        for (String name : dimensionNames) {
            if (!dimensions.containsKey(name)) {
                throw new IllegalArgumentException("roll-up names " + name + ", which is not a dimension");
            }
        }
        rollUps.add(List.of(dimensionNames));
        return this;
    }

    /** A property searchable in Logs Insights but not a metric (e.g. requestId). Null values are skipped. */
    public EmfRecord property(String name, Object value) {
        if (value != null) {
            properties.put(name, value);
        }
        return this;
    }

    /** The JSON line, timestamped {@code at}. */
    public String toJson(Instant at) {
        ObjectNode root = JobJson.mapper().createObjectNode();
        ObjectNode aws = root.putObject("_aws");
        aws.put("Timestamp", at.toEpochMilli());
        ObjectNode directive = aws.putArray("CloudWatchMetrics").addObject();
        directive.put("Namespace", namespace);
        ArrayNode dimensionSets = directive.putArray("Dimensions");
        ArrayNode dimensionSet = dimensionSets.addArray();
        dimensions.keySet().forEach(dimensionSet::add);
        rollUps.forEach(names -> names.forEach(dimensionSets.addArray()::add));
        ArrayNode metricDefs = directive.putArray("Metrics");
        units.forEach((name, unit) -> metricDefs.addObject().put("Name", name).put("Unit", unit.cloudWatchName()));
        properties.forEach((k, v) -> root.set(k, JobJson.mapper().valueToTree(v)));
        dimensions.forEach(root::put);
        metrics.forEach((k, v) -> root.set(k, JobJson.mapper().valueToTree(v)));
        return root.toString();
    }
}
