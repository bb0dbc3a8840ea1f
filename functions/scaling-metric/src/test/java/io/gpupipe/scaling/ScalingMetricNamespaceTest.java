package io.gpupipe.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.observability.MetricNamespace;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DesiredTasks is published in SAM's MetricNamespace, handed over as {@code GPUPIPE_METRIC_NAMESPACE}. */
class ScalingMetricNamespaceTest {

    @Test
    void metricNamespace_shouldComeFromTheSharedEnvVar() {
        assertThat(config(Map.of(MetricNamespace.ENV_VAR, "TeamX/Inference")).metricNamespace())
                .isEqualTo("TeamX/Inference");
    }

    @Test
    void metricNamespace_shouldDefaultToGpupipe_andYieldToTheFunctionsOwnKey() {
        assertThat(config(Map.of()).metricNamespace()).isEqualTo(MetricNamespace.DEFAULT);
        assertThat(config(Map.of(MetricNamespace.ENV_VAR, "Shared", "GPUPIPE_SCALING_METRIC_NAMESPACE", "Own"))
                .metricNamespace()).isEqualTo("Own");
    }

    private static ScalingConfig config(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(extra);
        for (Tier tier : TierCatalogue.bundled().names()) {
            String prefix = "GPUPIPE_SCALING_TIERS_" + tier.envName();
            env.put(prefix + "_QUEUE_URL", "http://localhost/q/" + tier);
            env.put(prefix + "_CLUSTER", "gpupipe");
            env.put(prefix + "_SERVICE", "gpupipe-" + tier);
            env.put(prefix + "_MAX_TASKS", "2");
        }
        return new SmallRyeConfigBuilder().addDefaultInterceptors().withSources(new EnvConfigSource(env, 300))
                .withConverter(Duration.class, 200, new DurationConverter())
                .withMapping(ScalingConfig.class).build().getConfigMapping(ScalingConfig.class);
    }
}
