package io.gpupipe.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The environment variable names the deployment template sets map onto {@link ScalingConfig}. */
class ScalingConfigEnvTest {
    @Test
    void mapping_shouldReadTierSettings_fromEnvironmentVariableNames() {
        // given
        Map<String, String> env = Map.ofEntries(
                Map.entry("GPUPIPE_SCALING_SMALL_QUEUE_URL",
                        "https://sqs.us-east-1.amazonaws.com/123456789012/gpupipe-small"),
                Map.entry("GPUPIPE_SCALING_SMALL_CLUSTER", "gpupipe"),
                Map.entry("GPUPIPE_SCALING_SMALL_SERVICE", "gpupipe-small"),
                Map.entry("GPUPIPE_SCALING_SMALL_MAX_TASKS", "10"),
                Map.entry("GPUPIPE_SCALING_LARGE_QUEUE_URL",
                        "https://sqs.us-east-1.amazonaws.com/123456789012/gpupipe-large"),
                Map.entry("GPUPIPE_SCALING_LARGE_CLUSTER", "gpupipe"),
                Map.entry("GPUPIPE_SCALING_LARGE_SERVICE", "gpupipe-large"),
                Map.entry("GPUPIPE_SCALING_LARGE_MAX_TASKS", "4"),
                Map.entry("GPUPIPE_SCALING_LARGE_BACKLOG_PER_TASK", "2"),
                Map.entry("GPUPIPE_SCALING_SMALL_WARM_WINDOW", "MON-FRI 08:00-18:00 Europe/Berlin 1"),
                Map.entry("GPUPIPE_SCALING_CLOUDWATCH_ENDPOINT_OVERRIDE", "http://localhost:4566"));

        // when: as Quarkus builds it (its converter reads "60s"/"5m" durations)
        SmallRyeConfig config = new SmallRyeConfigBuilder().withSources(new EnvConfigSource(env, 300))
                .withConverter(Duration.class, 200, new DurationConverter())
                .withMapping(ScalingConfig.class).build();
        ScalingConfig scaling = config.getConfigMapping(ScalingConfig.class);

        // then
        assertThat(scaling.small().queueUrl()).endsWith("/gpupipe-small");
        assertThat(scaling.small().targets().maxTasks()).isEqualTo(10);
        assertThat(scaling.small().targets().backlogPerTask()).isEqualTo(50.0);
        // 2026-12-01 is a Tuesday: 09:00 UTC is 10:00 in Berlin, inside the window; Saturday is outside
        assertThat(scaling.small().minimumAt(Instant.parse("2026-12-01T09:00:00Z"))).isEqualTo(1);
        assertThat(scaling.small().minimumAt(Instant.parse("2026-12-05T09:00:00Z"))).isZero();
        assertThat(scaling.large().warmWindow()).isEmpty();
        assertThat(scaling.large().minimumAt(Instant.parse("2026-12-01T09:00:00Z"))).isZero();
        assertThat(scaling.small().targets().gpuUtilizationPercent()).isEqualTo(70.0);
        assertThat(scaling.large().service()).isEqualTo("gpupipe-large");
        assertThat(scaling.large().targets().backlogPerTask()).isEqualTo(2.0);
        assertThat(scaling.large().targets().maxTasks()).isEqualTo(4);
        assertThat(scaling.cloudwatchEndpointOverride()).contains(URI.create("http://localhost:4566"));
        assertThat(scaling.ecsEndpointOverride()).isEmpty();
        assertThat(scaling.gpu().metricName()).isEqualTo("TaskGPUUtilization");
        assertThat(scaling.gpu().lookback()).isEqualTo(Duration.ofMinutes(5));
        assertThat(scaling.tiers()).containsOnlyKeys("small", "large");
    }
}
