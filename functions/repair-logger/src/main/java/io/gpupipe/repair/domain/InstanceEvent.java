package io.gpupipe.repair.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An ECS container instance event, reduced to what auto-repair tracking needs. {@code status} is the instance
 * status for a state change (ACTIVE, DRAINING, …) and the overall health status for a health change (OK, IMPAIRED,
 * …); {@code xids} are the XID codes named in any status reason, in order of appearance.
 */
public record InstanceEvent(
        Kind kind,
        String eventId,
        Instant time,
        String region,
        String cluster,
        String clusterArn,
        String containerInstanceArn,
        String ec2InstanceId,
        String capacityProvider,
        String status,
        String statusReason,
        List<HealthCheck> healthChecks,
        List<Integer> xids) {

    /** The two EventBridge detail types handled. */
    public enum Kind {
        STATE_CHANGE("ECS Container Instance State Change"),
        HEALTH_CHANGE("ECS Container Instance Health Change");

        private final String detailType;

        Kind(String detailType) {
            this.detailType = detailType;
        }

        public String detailType() {
            return detailType;
        }
    }

    public InstanceEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
        healthChecks = List.copyOf(healthChecks);
        xids = List.copyOf(xids);
    }

    /** "ACCELERATED_COMPUTE=IMPAIRED (XID_79)" for each health check, plus the instance's status reason. */
    public List<String> healthReasons() {
        List<String> reasons = new ArrayList<>();
        healthChecks.forEach(check -> reasons.add(check.describe()));
        if (statusReason != null && !statusReason.isBlank()) {
            reasons.add(statusReason);
        }
        return reasons;
    }
}
