package io.gpupipe.localaws.standin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * What CloudWatch refuses in a PutMetricData request (CloudWatch API Reference, "PutMetricData", "MetricDatum",
 * "Dimension"): a missing Namespace or MetricData (MissingParameter); a namespace outside 1–255 characters or
 * beginning with "AWS/" ("Namespaces that begin with AWS/ are reserved for use by Amazon Web Services products");
 * more than 1000 metrics in one request; a datum without a 1–255 character MetricName; more than 30 dimensions per
 * metric, a dimension name outside 1–255 or value outside 1–1024 characters; a Value outside -2^360 to 2^360 or one
 * of the special values NaN, +Infinity, -Infinity (InvalidParameterValue).
 */
final class PutMetricDataRules {
    static final int MAX_METRICS = 1000;
    static final int MAX_DIMENSIONS = 30;
    private static final double MAX_MAGNITUDE = Math.scalb(1.0, 360);

    /** A refusal: the Smithy error shape, its AWS Query error code, and CloudWatch's kind of message. */
    record Violation(String shape, String queryCode, String message) {
        static Violation missing(String parameter) {
            return new Violation("MissingRequiredParameterException", "MissingParameter",
                    "The parameter " + parameter + " is required.");
        }

        static Violation invalid(String parameter, String value, String why) {
            return new Violation("InvalidParameterValueException", "InvalidParameterValue",
                    "The value " + value + " for parameter " + parameter + " is invalid: " + why);
        }
    }

    private PutMetricDataRules() {
    }

    /** The first rule {@code request} (a decoded PutMetricData body) breaks, if any. */
    static Optional<Violation> check(JsonNode request) {
        JsonNode namespace = request.get("Namespace");
        if (namespace == null || namespace.isNull()) {
            return Optional.of(Violation.missing("Namespace"));
        }
        String ns = namespace.asText();
        if (ns.isEmpty() || ns.length() > 255) {
            return Optional.of(Violation.invalid("Namespace", ns, "length must be 1 to 255"));
        }
        if (ns.startsWith("AWS/")) {
            return Optional.of(Violation.invalid("Namespace", ns, "namespaces beginning with AWS/ are reserved"));
        }
        JsonNode data = request.get("MetricData");
        if (data == null || !data.isArray()) {
            return Optional.of(Violation.missing("MetricData"));
        }
        if (data.size() > MAX_METRICS) {
            return Optional.of(Violation.invalid("MetricData", data.size() + " metrics",
                    "at most " + MAX_METRICS + " per request"));
        }
        for (int i = 0; i < data.size(); i++) {
            Optional<Violation> violation = checkDatum(data.get(i), "MetricData.member." + (i + 1));
            if (violation.isPresent()) {
                return violation;
            }
        }
        return Optional.empty();
    }

    private static Optional<Violation> checkDatum(JsonNode datum, String path) {
        String name = datum.path("MetricName").asText("");
        if (name.isEmpty() || name.length() > 255) {
            return Optional.of(Violation.invalid(path + ".MetricName", name, "length must be 1 to 255"));
        }
        JsonNode value = datum.get("Value");
        if (value != null && value.isNumber() && !(Math.abs(value.asDouble()) <= MAX_MAGNITUDE)) {
            return Optional.of(Violation.invalid(path + ".Value", value.asText(),
                    "values must be in the range of -2^360 to 2^360, NaN and infinities are not supported"));
        }
        JsonNode dimensions = datum.path("Dimensions");
        if (dimensions.size() > MAX_DIMENSIONS) {
            return Optional.of(Violation.invalid(path + ".Dimensions", dimensions.size() + " dimensions",
                    "at most " + MAX_DIMENSIONS + " per metric"));
        }
        for (int d = 0; d < dimensions.size(); d++) {
            String dimensionName = dimensions.get(d).path("Name").asText("");
            String dimensionValue = dimensions.get(d).path("Value").asText("");
            String dimensionPath = path + ".Dimensions.member." + (d + 1);
            if (dimensionName.isEmpty() || dimensionName.length() > 255) {
                return Optional.of(Violation.invalid(dimensionPath + ".Name", dimensionName,
                        "length must be 1 to 255"));
            }
            if (dimensionValue.isEmpty() || dimensionValue.length() > 1024) {
                return Optional.of(Violation.invalid(dimensionPath + ".Value", dimensionValue,
                        "length must be 1 to 1024"));
            }
        }
        return Optional.empty();
    }
}
