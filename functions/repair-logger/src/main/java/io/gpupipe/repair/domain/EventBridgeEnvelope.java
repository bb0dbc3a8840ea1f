package io.gpupipe.repair.domain;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The EventBridge event envelope. Our own record because {@code detail-type} is not a Java name: the
 * aws-lambda-java-events {@code ScheduledEvent} reads it as null under Quarkus's Jackson (see PLATFORM-NOTES).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record EventBridgeEnvelope(
        String version,
        String id,
        @JsonProperty("detail-type") String detailType,
        String source,
        String account,
        String time,
        String region,
        List<String> resources,
        JsonNode detail) {
}
