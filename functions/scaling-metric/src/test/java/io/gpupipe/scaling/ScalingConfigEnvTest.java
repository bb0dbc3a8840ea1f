package io.gpupipe.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The environment variable names the deployment template sets map onto {@link ScalingConfig}. */
class ScalingConfigEnvTest {
    private static final TierCatalogue CATALOGUE = TierCatalogue.bundled();

    @Test
    void mapping_shouldReadTierSettings_fromEnvironmentVariableNames() {
        // given
        Map<String, String> env = Map.ofEntries(
                Map.entry("GPUPIPE_SCALING_TIERS_SMALL_QUEUE_URL",
                        "https://sqs.us-east-1.amazonaws.com/123456789012/gpupipe-small"),
                Map.entry("GPUPIPE_SCALING_TIERS_SMALL_CLUSTER", "gpupipe"),
                Map.entry("GPUPIPE_SCALING_TIERS_SMALL_SERVICE", "gpupipe-small"),
                Map.entry("GPUPIPE_SCALING_TIERS_SMALL_MAX_TASKS", "10"),
                Map.entry("GPUPIPE_SCALING_TIERS_LARGE_QUEUE_URL",
                        "https://sqs.us-east-1.amazonaws.com/123456789012/gpupipe-large"),
                Map.entry("GPUPIPE_SCALING_TIERS_LARGE_CLUSTER", "gpupipe"),
                Map.entry("GPUPIPE_SCALING_TIERS_LARGE_SERVICE", "gpupipe-large"),
                Map.entry("GPUPIPE_SCALING_TIERS_LARGE_MAX_TASKS", "4"),
                Map.entry("GPUPIPE_SCALING_TIERS_LARGE_BACKLOG_PER_TASK", "2"),
                Map.entry("GPUPIPE_SCALING_TIERS_SMALL_WARM_WINDOW", "MON-FRI 08:00-18:00 Europe/Berlin 1"),
                Map.entry("GPUPIPE_SCALING_TIERS_SPEECH_QUEUE_URL",
                        "https://sqs.us-east-1.amazonaws.com/123456789012/gpupipe-speech"),
                Map.entry("GPUPIPE_SCALING_TIERS_SPEECH_CLUSTER", "gpupipe"),
                Map.entry("GPUPIPE_SCALING_TIERS_SPEECH_SERVICE", "gpupipe-speech"),
                Map.entry("GPUPIPE_SCALING_TIERS_EMBED_QUEUE_URL",
                        "https://sqs.us-east-1.amazonaws.com/123456789012/gpupipe-embed"),
                Map.entry("GPUPIPE_SCALING_TIERS_EMBED_CLUSTER", "gpupipe"),
                Map.entry("GPUPIPE_SCALING_TIERS_EMBED_SERVICE", "gpupipe-embed"),
                Map.entry("GPUPIPE_SCALING_CLOUDWATCH_ENDPOINT_OVERRIDE", "http://localhost:4566"));

        // when: as Quarkus builds it (its converter reads "60s"/"5m" durations)
        SmallRyeConfig config = new SmallRyeConfigBuilder().withSources(new EnvConfigSource(env, 300))
                .withConverter(Duration.class, 200, new DurationConverter())
                .withMapping(ScalingConfig.class).build();
        ScalingConfig scaling = config.getConfigMapping(ScalingConfig.class);
        ScalingConfig.TierSettings small = scaling.tiers().get("small");
        ScalingConfig.TierSettings large = scaling.tiers().get("large");

        // then
        assertThat(scaling.tiers().get("small").queueUrl()).endsWith("/gpupipe-small");
        assertThat(small.targets(CATALOGUE.get(Tier.of("small"))).maxTasks()).isEqualTo(10);
        assertThat(small.targets(CATALOGUE.get(Tier.of("small"))).backlogPerTask()).isEqualTo(50.0);
        // 2026-12-01 is a Tuesday: 09:00 UTC is 10:00 in Berlin, inside the window; Saturday is outside
        assertThat(scaling.tiers().get("small").minimumAt(Instant.parse("2026-12-01T09:00:00Z"))).isEqualTo(1);
        assertThat(scaling.tiers().get("small").minimumAt(Instant.parse("2026-12-05T09:00:00Z"))).isZero();
        assertThat(scaling.tiers().get("large").warmWindow()).isEmpty();
        assertThat(scaling.tiers().get("large").minimumAt(Instant.parse("2026-12-01T09:00:00Z"))).isZero();
        assertThat(small.targets(CATALOGUE.get(Tier.of("small"))).gpuUtilizationPercent()).isEqualTo(70.0);
        assertThat(scaling.tiers().get("large").service()).isEqualTo("gpupipe-large");
        assertThat(large.targets(CATALOGUE.get(Tier.of("large"))).backlogPerTask()).isEqualTo(2.0);
        assertThat(large.targets(CATALOGUE.get(Tier.of("large"))).maxTasks()).isEqualTo(4);
        assertThat(scaling.cloudwatchEndpointOverride()).contains(URI.create("http://localhost:4566"));
        assertThat(scaling.ecsEndpointOverride()).isEmpty();
        assertThat(scaling.gpu().metricName()).isEqualTo("TaskGPUUtilization");
        assertThat(scaling.gpu().lookback()).isEqualTo(Duration.ofMinutes(5));
        assertThat(scaling.tiers()).containsOnlyKeys("small", "large", "speech", "embed");
        // a tier without _MAX_TASKS / _BACKLOG_PER_TASK takes the catalogue's (today's config had no third tier)
        assertThat(scaling.tiers().get("speech").targets(CATALOGUE.get(Tier.of("speech"))).maxTasks())
                .isEqualTo(CATALOGUE.get(Tier.of("speech")).maxTasks());
        assertThat(scaling.settings(CATALOGUE).keySet()).extracting(t -> t.tier().wireName())
                .containsExactly("small", "large", "speech", "embed");
    }

    @Test
    void settings_shouldTakeUpATierAddedToTheCatalogue_andRefuseToStartWithoutItsSettings() {
        TierCatalogue withMedium = CATALOGUE.withTier(CATALOGUE.get(Tier.of("small")).renamed("medium")
                .withMaxTasks(6));
        Map<String, String> env = new java.util.HashMap<>();
        for (String tier : CATALOGUE.names().stream().map(Tier::envName).toList()) {
            env.put("GPUPIPE_SCALING_TIERS_" + tier + "_QUEUE_URL", "https://sqs/" + tier);
            env.put("GPUPIPE_SCALING_TIERS_" + tier + "_CLUSTER", "gpupipe");
            env.put("GPUPIPE_SCALING_TIERS_" + tier + "_SERVICE", "gpupipe-" + tier);
        }
        assertThatThrownBy(() -> config(env).settings(withMedium)).hasMessageStartingWith(
                "tier medium is in the catalogue but has no scaling settings: set GPUPIPE_SCALING_TIERS_MEDIUM_");

        env.put("GPUPIPE_SCALING_TIERS_MEDIUM_QUEUE_URL", "https://sqs/medium");
        env.put("GPUPIPE_SCALING_TIERS_MEDIUM_CLUSTER", "gpupipe");
        env.put("GPUPIPE_SCALING_TIERS_MEDIUM_SERVICE", "gpupipe-medium");
        Map<TierDefinition, ScalingConfig.TierSettings> settings = config(env).settings(withMedium);
        TierDefinition medium = withMedium.get(Tier.of("medium"));
        assertThat(settings.get(medium).targets(medium).maxTasks()).isEqualTo(6);
    }

    private static ScalingConfig config(Map<String, String> env) {
        return new SmallRyeConfigBuilder().withSources(new EnvConfigSource(env, 300))
                .withConverter(Duration.class, 200, new DurationConverter())
                .withMapping(ScalingConfig.class).build().getConfigMapping(ScalingConfig.class);
    }
}
