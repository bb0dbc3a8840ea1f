package io.gpupipe.scaling.event;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.scaling.TierWake;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * The EventBridge "Scheduled Event" that triggers a tick, or the router's {@link TierWake} in the same shape. Our own
 * record: aws-lambda-java-events' ScheduledEvent reads {@code detail-type} as null under Quarkus's Jackson
 * (PLATFORM-NOTES).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ScheduledEvent(String id, @JsonProperty("detail-type") String detailType, String source,
                             String time, List<String> resources, JsonNode detail) {

    /** The router's wake this event carries, if it is one. */
    public Optional<TierWake> wake(Instant now) {
        return TierWake.from(source, detailType, detail, instant().orElse(now));
    }

    /** The scheduled time, which stamps the published datapoints; empty when absent or unparseable. */
    public Optional<Instant> instant() {
        if (time == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(time));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
