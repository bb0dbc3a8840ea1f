package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.observability.JobMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StdoutJobEventsTest {
    private static final Instant NOW = Instant.parse("2026-05-03T04:35:47.906Z");
    private final JobEvent succeeded = new JobEvent("550e8400-e29b-41d4-a716-446655440000", Tier.of("small"), Task.GENERATE,
            JobOutcome.SUCCEEDED, null, 1, 1200, 4956, 5010, 17, 102, 1, "mistral-7b", "v0.2", "arn:task/1");

    @Test
    void emit_shouldWriteOneJsonLogLineAndOneEmfLine_whenJobSucceeded() {
        // given
        var bytes = new ByteArrayOutputStream();
        var events = new StdoutJobEvents(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                Clock.fixed(NOW, ZoneOffset.UTC));
        // when
        events.emit(succeeded);
        // then
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(2);
        JsonNode log = JobJson.read(lines[0], JsonNode.class);
        assertThat(log.path("requestId").asText()).isEqualTo(succeeded.requestId());
        assertThat(log.path("tier").asText()).isEqualTo("small");
        assertThat(log.path("outcome").asText()).isEqualTo("succeeded");
        assertThat(log.path("queueWaitMs").asLong()).isEqualTo(1200);
        assertThat(log.path("inferenceMs").asLong()).isEqualTo(4956);
        assertThat(log.path("promptTokens").asInt()).isEqualTo(17);
        assertThat(log.path("completionTokens").asInt()).isEqualTo(102);
        assertThat(log.path("level").asText()).isEqualTo("INFO");
        JsonNode emf = JobJson.read(lines[1], JsonNode.class);
        JsonNode directive = emf.path("_aws").path("CloudWatchMetrics").get(0);
        assertThat(emf.path("_aws").path("Timestamp").asLong()).isEqualTo(NOW.toEpochMilli());
        assertThat(directive.path("Namespace").asText()).isEqualTo("Gpupipe");
        assertThat(directive.path("Dimensions").get(0).toString()).isEqualTo("[\"Tier\",\"Outcome\"]");
        assertThat(emf.path("QueueWaitMs").asDouble()).isEqualTo(1200.0);
        assertThat(emf.path("InferenceMs").asDouble()).isEqualTo(4956.0);
        assertThat(emf.path("CompletionTokens").asDouble()).isEqualTo(102.0);
        assertThat(emf.path("requestId").asText()).isEqualTo(succeeded.requestId());
    }

    @Test
    void emfLine_shouldPublishPerTierLatencyAndTokensPerSecond_inTheConfiguredNamespace() {
        JsonNode emf = JobJson.read(StdoutJobEvents.emfLine(succeeded, NOW, "Team/Gpupipe"), JsonNode.class);
        JsonNode directive = emf.at("/_aws/CloudWatchMetrics/0");
        assertThat(directive.path("Namespace").asText()).isEqualTo("Team/Gpupipe");
        // rolled up to the tier alone, which the dashboard's percentiles and the p99 alarm read
        assertThat(directive.path("Dimensions").toString()).isEqualTo("[[\"Tier\",\"Outcome\"],[\"Tier\"]]");
        // submit to result = queue wait + processing; tokens/s = completion tokens over inference seconds
        assertThat(emf.path(JobMetrics.SUBMIT_TO_RESULT_MS).asDouble()).isEqualTo(1200.0 + 5010.0);
        assertThat(emf.path(JobMetrics.TOKENS_PER_SECOND).asDouble()).isCloseTo(102 / 4.956, within(1e-9));
        Map<String, String> units = new HashMap<>();
        directive.path("Metrics").forEach(m -> units.put(m.path("Name").asText(), m.path("Unit").asText()));
        assertThat(units).containsEntry(JobMetrics.SUBMIT_TO_RESULT_MS, "Milliseconds")
                .containsEntry(JobMetrics.QUEUE_WAIT_MS, "Milliseconds")
                .containsEntry(JobMetrics.INFERENCE_MS, "Milliseconds")
                .containsEntry(JobMetrics.TOKENS_PER_SECOND, "Count/Second");
    }

    @Test
    void emfLine_shouldLeaveOutSubmitToResult_whenTheDeliveryWroteNoResult() {
        var requeued = new JobEvent("id", Tier.of("small"), Task.GENERATE, JobOutcome.REQUEUED, "model_error", 1, 40,
                300, 350, 0, 0, 2, "m", "v", "local");
        JsonNode emf = JobJson.read(StdoutJobEvents.emfLine(requeued, NOW, "Gpupipe"), JsonNode.class);
        assertThat(emf.has(JobMetrics.SUBMIT_TO_RESULT_MS)).isFalse();
        assertThat(emf.has(JobMetrics.TOKENS_PER_SECOND)).isFalse();
        assertThat(emf.path(JobMetrics.INFERENCE_MS).asDouble()).isEqualTo(300.0);
    }

    @Test
    void logLine_shouldCarryTheJobsTraceId_whenOneIsGiven() {
        JsonNode log = JobJson.read(StdoutJobEvents.logLine(succeeded, NOW, "5759e988bd862e3fe1be46a994272793"),
                JsonNode.class);
        assertThat(log.path("traceId").asText()).isEqualTo("5759e988bd862e3fe1be46a994272793");
        assertThat(JobJson.read(StdoutJobEvents.logLine(succeeded, NOW), JsonNode.class).has("traceId")).isFalse();
    }

    @Test
    void emfLine_shouldLeaveOutInferenceMetrics_whenNoModelCallWasMade() {
        // given a cancelled job
        var cancelled = new JobEvent("id", Tier.of("large"), Task.SPEECH, JobOutcome.CANCELLED, null, 1, 50, 0, 3, 0, 0, 0,
                null, null, "local");
        // when
        JsonNode emf = JobJson.read(StdoutJobEvents.emfLine(cancelled, NOW, "Gpupipe"), JsonNode.class);
        // then
        assertThat(emf.has("InferenceMs")).isFalse();
        assertThat(emf.has("PromptTokens")).isFalse();
        assertThat(emf.path("Jobs").asDouble()).isEqualTo(1.0);
        assertThat(emf.path("Outcome").asText()).isEqualTo("cancelled");
        assertThat(emf.path("Tier").asText()).isEqualTo("large");
    }

    @Test
    void logLine_shouldBeAWarning_withTheErrorCode_whenJobFailed() {
        var failed = new JobEvent("id", Tier.of("small"), Task.GENERATE, JobOutcome.FAILED, "model_error", 3, 10, 40, 60,
                0, 0, 3, "m", "v", "local");
        JsonNode log = JobJson.read(StdoutJobEvents.logLine(failed, NOW), JsonNode.class);
        assertThat(log.path("level").asText()).isEqualTo("WARN");
        assertThat(log.path("errorCode").asText()).isEqualTo("model_error");
        assertThat(log.path("attempts").asInt()).isEqualTo(3);
    }
}
