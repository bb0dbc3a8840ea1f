package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.observability.JobMetrics;
import io.gpupipe.model.routing.RoutingDecision;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoutingMetricsTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final InferenceJob JOB = new InferenceJob("3f1c2b8e-7d4a-4c1e-9b2f-0a1b2c3d4e5f", Task.GENERATE,
            "Hi", 256, 0.7, 1.0, null, null, null, null, null, NOW);

    @Test
    void routed_shouldWriteOneEmfLineInGpupipeNamespace_whenJobIsRouted() throws Exception {
        // given
        List<String> lines = new ArrayList<>();
        RoutingMetrics metrics = new RoutingMetrics(lines::add, Clock.fixed(NOW, ZoneOffset.UTC));

        // when
        metrics.routed(JOB, new RoutingDecision(Tier.of("large"), RoutingDecision.Reason.MAX_TOKENS));

        // then
        assertThat(lines).hasSize(1);
        JsonNode emf = JobJson.mapper().readTree(lines.get(0));
        JsonNode directive = emf.at("/_aws/CloudWatchMetrics/0");
        assertThat(emf.at("/_aws/Timestamp").asLong()).isEqualTo(NOW.toEpochMilli());
        assertThat(directive.get("Namespace").asText()).isEqualTo("Gpupipe");
        assertThat(directive.at("/Dimensions/0/0").asText()).isEqualTo("Tier");
        assertThat(directive.at("/Metrics/0/Name").asText()).isEqualTo(RoutingMetrics.JOBS_ROUTED);
        assertThat(emf.get("Tier").asText()).isEqualTo("large");
        assertThat(emf.get(RoutingMetrics.JOBS_ROUTED).asDouble()).isEqualTo(1.0);
        assertThat(emf.get("reason").asText()).isEqualTo("MAX_TOKENS");
        assertThat(emf.get("requestId").asText()).isEqualTo(JOB.requestId());
    }

    @Test
    void routed_shouldPublishSubmitLatencyInMilliseconds_fromTheJobsSubmissionToNow() throws Exception {
        List<String> lines = new ArrayList<>();
        new RoutingMetrics(lines::add, Clock.fixed(NOW.plusMillis(42), ZoneOffset.UTC), "Custom/Ns")
                .routed(JOB, new RoutingDecision(Tier.of("small"), RoutingDecision.Reason.DEFAULT));
        JsonNode emf = JobJson.mapper().readTree(lines.get(0));
        assertThat(emf.at("/_aws/CloudWatchMetrics/0/Namespace").asText()).isEqualTo("Custom/Ns");
        assertThat(emf.get(JobMetrics.SUBMIT_LATENCY_MS).asDouble()).isEqualTo(42.0);
        assertThat(emf.at("/_aws/CloudWatchMetrics/0/Metrics/1/Unit").asText()).isEqualTo("Milliseconds");
        // bounded dimensions: the tier only, never the requestId
        assertThat(emf.at("/_aws/CloudWatchMetrics/0/Dimensions").toString()).isEqualTo("[[\"Tier\"]]");
    }

    @Test
    void classifierFallback_shouldCountFallbackWithCause_whenClassifierFails() throws Exception {
        List<String> lines = new ArrayList<>();
        new RoutingMetrics(lines::add, Clock.fixed(NOW, ZoneOffset.UTC)).classifierFallback("bedrock", "timeout");
        JsonNode emf = JobJson.mapper().readTree(lines.get(0));
        assertThat(emf.get("Classifier").asText()).isEqualTo("bedrock");
        assertThat(emf.get(RoutingMetrics.CLASSIFIER_FALLBACKS).asDouble()).isEqualTo(1.0);
        assertThat(emf.get("cause").asText()).isEqualTo("timeout");
    }

    @Test
    void routed_shouldNotThrow_whenTheSinkFails() {
        RoutingMetrics metrics = new RoutingMetrics(line -> {
            throw new IllegalStateException("stdout closed");
        }, Clock.systemUTC());
        assertThatCode(() -> metrics.routed(JOB, new RoutingDecision(Tier.of("small"), RoutingDecision.Reason.DEFAULT)))
                .doesNotThrowAnyException();
    }
}
