package io.gpupipe.localstack.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AwsEventsTest {
    private static final Instant AT = Instant.parse("2026-11-29T10:15:30.123456Z");

    @Test
    void objectCreated_shouldHaveTheShapeS3Sends_whenAResultIsWritten() {
        // when
        JsonNode record = AwsEvents.objectCreated("gpupipe-results", "results/a b+c.json", 321, "\"abc123\"",
                "0000000000000001", AT).path("Records").get(0);
        // then
        assertThat(record.path("eventVersion").asText()).isEqualTo("2.1");
        assertThat(record.path("eventSource").asText()).isEqualTo("aws:s3");
        assertThat(record.path("awsRegion").asText()).isEqualTo("us-east-1");
        assertThat(record.path("eventTime").asText()).isEqualTo("2026-11-29T10:15:30.123Z");
        assertThat(record.path("eventName").asText()).isEqualTo("ObjectCreated:Put");
        assertThat(record.path("s3").path("s3SchemaVersion").asText()).isEqualTo("1.0");
        assertThat(record.path("s3").path("bucket").path("name").asText()).isEqualTo("gpupipe-results");
        assertThat(record.path("s3").path("bucket").path("arn").asText()).isEqualTo("arn:aws:s3:::gpupipe-results");
        assertThat(record.path("s3").path("object").path("key").asText()).isEqualTo("results/a+b%2Bc.json");
        assertThat(record.path("s3").path("object").path("size").asLong()).isEqualTo(321);
        assertThat(record.path("s3").path("object").path("eTag").asText()).isEqualTo("abc123");
        assertThat(record.path("s3").path("object").path("sequencer").asText()).isEqualTo("0000000000000001");
    }

    @Test
    void scheduled_shouldHaveTheShapeEventBridgeSends_whenTheRuleFires() {
        // when
        JsonNode event = AwsEvents.scheduled("rule-x", AT);
        // then
        assertThat(event.path("version").asText()).isEqualTo("0");
        assertThat(event.path("detail-type").asText()).isEqualTo("Scheduled Event");
        assertThat(event.path("source").asText()).isEqualTo("aws.events");
        assertThat(event.path("time").asText()).isEqualTo("2026-11-29T10:15:30Z");
        assertThat(event.path("region").asText()).isEqualTo("us-east-1");
        assertThat(event.path("resources").get(0).asText())
                .isEqualTo("arn:aws:events:us-east-1:000000000000:rule/rule-x");
        assertThat(event.path("detail").isObject()).isTrue();
        assertThat(event.path("id").asText()).hasSize(36);
    }
}
