package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.observability.MetricNamespace;
import io.gpupipe.model.routing.RoutingDecision;
import io.gpupipe.router.RouterConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The router's EMF namespace comes from SAM's MetricNamespace, handed over as {@code GPUPIPE_METRIC_NAMESPACE}. */
class RoutingMetricsNamespaceTest {

    @Test
    void metricNamespace_shouldComeFromTheSharedEnvVar_andReachTheEmfLine() {
        // given
        RouterConfig config = config(Map.of(MetricNamespace.ENV_VAR, "TeamX/Inference"));
        List<String> lines = new ArrayList<>();
        var metrics = new RoutingMetrics(lines::add, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC),
                config.metricNamespace());

        // when
        metrics.routed(new InferenceJob("550e8400-e29b-41d4-a716-446655440000", Task.GENERATE, "p", 16, 0.0, 1.0,
                null, null, null, null, null, null),
                new RoutingDecision(Tier.of("small"), RoutingDecision.Reason.DEFAULT));

        // then
        JsonNode emf = JobJson.read(lines.get(0), JsonNode.class);
        assertThat(emf.at("/_aws/CloudWatchMetrics/0/Namespace").asText()).isEqualTo("TeamX/Inference");
    }

    @Test
    void metricNamespace_shouldDefaultToGpupipe_whenNotConfigured() {
        assertThat(config(Map.of()).metricNamespace()).isEqualTo(MetricNamespace.DEFAULT);
    }

    /** The router's configuration from these environment variables (and the required settings). */
    static RouterConfig config(Map<String, String> env) {
        Map<String, String> values = Map.of("gpupipe.router.queue-urls.small", "http://localhost/q/small",
                "gpupipe.router.queue-urls.large", "http://localhost/q/large",
                "gpupipe.router.queue-urls.speech", "http://localhost/q/speech", "gpupipe.router.bucket", "b");
        return new SmallRyeConfigBuilder().addDefaultInterceptors().withMapping(RouterConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(values, "test", 500), new EnvConfigSource(env, 300))
                .build().getConfigMapping(RouterConfig.class);
    }
}
