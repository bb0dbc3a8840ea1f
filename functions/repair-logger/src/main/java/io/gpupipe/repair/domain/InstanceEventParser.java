package io.gpupipe.repair.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads "ECS Container Instance State Change" and "ECS Container Instance Health Change" events from EventBridge.
 * Never throws: anything else (another detail type, another source, a malformed document) is
 * {@link Parsed.Unrecognized} with a reason, so the caller can log it and acknowledge.
 */
public final class InstanceEventParser {
    static final String SOURCE = "aws.ecs";

    /** An instance event, or why the document is not one. */
    public sealed interface Parsed {
        record Recognized(InstanceEvent event) implements Parsed {
        }

        /** Not an event we handle; {@code id} and {@code detailType} are whatever could be read (may be null). */
        record Unrecognized(String reason, String id, String detailType) implements Parsed {
        }
    }

    private InstanceEventParser() {
    }

    /** Parses the raw event JSON. */
    public static Parsed parse(String json) {
        try {
            return parse(JobJson.mapper().readTree(json == null ? "" : json));
        } catch (JsonProcessingException e) {
            return new Parsed.Unrecognized("event is not valid JSON", null, null);
        }
    }

    /** Parses an event already read as a JSON tree. */
    public static Parsed parse(JsonNode node) {
        if (node == null || !node.isObject()) {
            return new Parsed.Unrecognized("event is not a JSON object", null, null);
        }
        EventBridgeEnvelope envelope;
        try {
            envelope = JobJson.mapper().treeToValue(node, EventBridgeEnvelope.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return new Parsed.Unrecognized("event envelope is malformed", text(node, "id"), text(node, "detail-type"));
        }
        Optional<InstanceEvent.Kind> kind = Arrays.stream(InstanceEvent.Kind.values())
                .filter(k -> k.detailType().equals(envelope.detailType())).findFirst();
        if (!SOURCE.equals(envelope.source()) || kind.isEmpty()) {
            return new Parsed.Unrecognized("not an ECS container instance event (source " + envelope.source()
                    + ", detail-type " + envelope.detailType() + ")", envelope.id(), envelope.detailType());
        }
        JsonNode detail = envelope.detail();
        if (detail == null || !detail.isObject()) {
            return new Parsed.Unrecognized("event has no detail object", envelope.id(), envelope.detailType());
        }
        String status = kind.get() == InstanceEvent.Kind.STATE_CHANGE ? text(detail, "status")
                : text(detail, "overallStatus");
        if (status == null) {
            return new Parsed.Unrecognized("event detail has no " + (kind.get() == InstanceEvent.Kind.STATE_CHANGE
                    ? "status" : "overallStatus"), envelope.id(), envelope.detailType());
        }
        List<HealthCheck> checks = healthChecks(detail);
        String statusReason = text(detail, "statusReason");
        return new Parsed.Recognized(new InstanceEvent(kind.get(), envelope.id(), instant(envelope.time()),
                envelope.region(), clusterName(text(detail, "clusterArn")), text(detail, "clusterArn"),
                text(detail, "containerInstanceArn"), text(detail, "ec2InstanceId"),
                text(detail, "capacityProviderName"), status, statusReason, checks, xids(checks, statusReason)));
    }

    /** "my-cluster" from "arn:aws:ecs:us-west-2:123456789012:cluster/my-cluster"; the input if not an ARN. */
    static String clusterName(String clusterArn) {
        if (clusterArn == null) {
            return null;
        }
        int slash = clusterArn.lastIndexOf('/');
        return slash < 0 ? clusterArn : clusterArn.substring(slash + 1);
    }

    /** Health change events list {@code healthChecks}; state change events may carry {@code healthStatus}. */
    private static List<HealthCheck> healthChecks(JsonNode detail) {
        List<HealthCheck> checks = new ArrayList<>();
        addChecks(detail.get("healthChecks"), checks);
        JsonNode healthStatus = detail.get("healthStatus");
        if (healthStatus != null && healthStatus.isObject()) {
            addChecks(healthStatus.get("details"), checks);
        }
        return checks;
    }

    private static void addChecks(JsonNode array, List<HealthCheck> into) {
        if (array == null || !array.isArray()) {
            return;
        }
        for (JsonNode check : array) {
            if (check.isObject()) {
                into.add(new HealthCheck(text(check, "type"), text(check, "status"), text(check, "statusReason")));
            }
        }
    }

    private static List<Integer> xids(List<HealthCheck> checks, String statusReason) {
        List<Integer> xids = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        checks.forEach(check -> reasons.add(check.statusReason()));
        reasons.add(statusReason);
        for (String reason : reasons) {
            for (int xid : GpuXids.parse(reason)) {
                if (!xids.contains(xid)) {
                    xids.add(xid);
                }
            }
        }
        return xids;
    }

    private static Instant instant(String time) {
        if (time == null) {
            return null;
        }
        try {
            return Instant.parse(time);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() || value.isContainerNode() ? null : value.asText();
    }
}
