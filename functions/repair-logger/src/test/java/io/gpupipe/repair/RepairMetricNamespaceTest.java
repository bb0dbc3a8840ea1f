package io.gpupipe.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.observability.MetricNamespace;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GpuHealthEvents go to SAM's MetricNamespace, handed over as {@code GPUPIPE_METRIC_NAMESPACE}. */
class RepairMetricNamespaceTest {

    @Test
    void metricNamespace_shouldComeFromTheSharedEnvVar() {
        assertThat(config(Map.of(MetricNamespace.ENV_VAR, "TeamX/Inference")).metricNamespace())
                .isEqualTo("TeamX/Inference");
    }

    @Test
    void metricNamespace_shouldDefaultToGpupipe_andYieldToTheFunctionsOwnKey() {
        assertThat(config(Map.of()).metricNamespace()).isEqualTo(MetricNamespace.DEFAULT);
        assertThat(config(Map.of(MetricNamespace.ENV_VAR, "Shared", "GPUPIPE_REPAIR_METRIC_NAMESPACE", "Own"))
                .metricNamespace()).isEqualTo("Own");
    }

    private static RepairConfig config(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("GPUPIPE_REPAIR_ALARM_TOPIC_ARN", "arn:aws:sns:us-east-1:123456789012:alarms");
        return new SmallRyeConfigBuilder().addDefaultInterceptors().withSources(new EnvConfigSource(env, 300))
                .withMapping(RepairConfig.class).build().getConfigMapping(RepairConfig.class);
    }
}
