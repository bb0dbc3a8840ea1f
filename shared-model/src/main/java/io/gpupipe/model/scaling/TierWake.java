package io.gpupipe.model.scaling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The router's wake signal (docs/cold-start.md, scaling signal): the first job of an idle tier makes the router
 * invoke the scaling-metric function asynchronously with this event, in the shape of the EventBridge events it
 * already takes ({@code source}, {@code detail-type}, {@code time}, {@code detail}), so that it sets the tier's
 * desired count at once instead of after the next scheduled run and the alarm's period.
 *
 * @param tier the tier that received a job
 * @param at   when the router sent it
 */
public record TierWake(Tier tier, Instant at) {
    public static final String SOURCE = "gpupipe.router";
    public static final String DETAIL_TYPE = "Tier Wake";
    /**
     * How long after its last send a router environment still assumes the tier awake: the to-zero alarm needs this
     * many idle minutes (ScalingLadder.DEFAULT_IDLE_TO_ZERO), so a tier that got a job more recently is not at zero.
     */
    public static final Duration AWAKE_AFTER_SEND = ScalingLadder.DEFAULT_IDLE_TO_ZERO;

    public TierWake {
        Objects.requireNonNull(tier, "tier");
        Objects.requireNonNull(at, "at");
    }

    /**
     * The name of a tier's to-zero alarm, after its service: the wake disables its actions before it raises the
     * desired count (the alarm has been in ALARM through the idle period and re-invokes its action every minute), and
     * a scheduled run enables them again once the alarm is OK, i.e. has evaluated a period with the job sent.
     */
    public static String toZeroAlarmName(String serviceName) {
        return Objects.requireNonNull(serviceName, "serviceName") + "-to-zero";
    }

    /** The event the router sends. */
    public String toJson() {
        ObjectNode event = JobJson.mapper().createObjectNode().put("source", SOURCE).put("detail-type", DETAIL_TYPE)
                .put("time", at.toString());
        event.putObject("detail").put("tier", tier.wireName());
        return event.toString();
    }

    /** The wake an event carries: empty for any other event (a scheduled run). */
    public static Optional<TierWake> from(String source, String detailType, JsonNode detail, Instant at) {
        if (!SOURCE.equals(source) || !DETAIL_TYPE.equals(detailType) || detail == null
                || !detail.path("tier").isTextual()) {
            return Optional.empty();
        }
        return Optional.of(new TierWake(Tier.of(detail.path("tier").asText()), at));
    }
}
