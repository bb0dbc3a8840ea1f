package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.observability.MetricNamespace;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The job metrics' namespace comes from SAM's MetricNamespace, handed over as {@code GPUPIPE_METRIC_NAMESPACE}. */
class MetricNamespaceConfigTest {

    @Test
    void metricNamespace_shouldComeFromTheSharedEnvVar_andReachTheEmfLine() {
        // given
        WorkerConfig config = config(Map.of(MetricNamespace.ENV_VAR, "TeamX/Inference"), Map.of());
        var bytes = new ByteArrayOutputStream();
        var events = new StdoutJobEvents(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), config.metricNamespace());

        // when
        events.emit(new JobEvent("id", Tier.of("small"), Task.GENERATE, JobOutcome.SUCCEEDED, null, 1, 5, 7, 12, 3, 4, 1,
                "m", "v", "local"));

        // then
        JsonNode emf = JobJson.read(bytes.toString(StandardCharsets.UTF_8).split("\n")[1], JsonNode.class);
        assertThat(emf.at("/_aws/CloudWatchMetrics/0/Namespace").asText()).isEqualTo("TeamX/Inference");
    }

    @Test
    void metricNamespace_shouldDefaultToGpupipe_andYieldToTheWorkersOwnKey() {
        assertThat(config(Map.of(), Map.of()).metricNamespace()).isEqualTo(MetricNamespace.DEFAULT);
        assertThat(config(Map.of(MetricNamespace.ENV_VAR, "Shared"),
                Map.of("gpupipe.worker.metric-namespace", "WorkerOnly")).metricNamespace()).isEqualTo("WorkerOnly");
    }

    private static WorkerConfig config(Map<String, String> env, Map<String, String> properties) {
        Map<String, String> values = new HashMap<>(Map.of("gpupipe.worker.tier", "small",
                "gpupipe.worker.queue-url", "http://localhost/000000000000/gpupipe-small",
                "gpupipe.worker.bucket", "gpupipe-results"));
        values.putAll(properties);
        return new SmallRyeConfigBuilder().addDefaultInterceptors().withMapping(WorkerConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(values, "test", 500), new EnvConfigSource(env, 300))
                .build().getConfigMapping(WorkerConfig.class);
    }
}
