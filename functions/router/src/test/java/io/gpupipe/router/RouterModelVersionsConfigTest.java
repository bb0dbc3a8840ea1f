package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * SAM sets {@code GPUPIPE_ROUTER_MODEL_VERSIONS_<TIER>} for every tier, empty until a deployment pins the tier's
 * model: the router must start with empty ones (no cache for those tiers) and refuse a key that names no tier.
 */
class RouterModelVersionsConfigTest {

    @Test
    void modelVersions_shouldKeepOnlyTheTiersWithAVersion_whenSamPassesEmptyOnes() {
        // given
        Map<String, String> env = required();
        env.put("GPUPIPE_ROUTER_MODEL_VERSIONS_SMALL", "repo@" + "a".repeat(40) + "+small-1");
        env.put("GPUPIPE_ROUTER_MODEL_VERSIONS_LARGE", "");
        env.put("GPUPIPE_ROUTER_MODEL_VERSIONS_SPEECH", "");
        // when
        Map<Tier, String> versions = RouterBeans.modelVersions(TierCatalogue.bundled(), config(env).modelVersions());
        // then: an empty version is no version (CachePolicy.knownVersion), so large and speech are never looked up
        assertThat(versions.get(Tier.of("small"))).isEqualTo("repo@" + "a".repeat(40) + "+small-1");
        assertThat(versions.getOrDefault(Tier.of("large"), "")).isEmpty();
        assertThat(versions.getOrDefault(Tier.of("speech"), "")).isEmpty();
    }

    @Test
    void modelVersions_shouldStopTheStartUp_whenAKeyNamesNoTier() {
        Map<String, String> env = required();
        env.put("GPUPIPE_ROUTER_MODEL_VERSIONS_MEDIUM", "x");
        assertThatThrownBy(() -> RouterBeans.modelVersions(TierCatalogue.bundled(), config(env).modelVersions()))
                .hasMessageContaining("gpupipe.router.model-versions.medium names no tier");
    }

    private static Map<String, String> required() {
        Map<String, String> env = new HashMap<>();
        env.put("GPUPIPE_ROUTER_QUEUE_URLS_SMALL", "https://sqs/small");
        env.put("GPUPIPE_ROUTER_QUEUE_URLS_LARGE", "https://sqs/large");
        env.put("GPUPIPE_ROUTER_QUEUE_URLS_SPEECH", "https://sqs/speech");
        env.put("GPUPIPE_ROUTER_BUCKET", "bucket");
        return env;
    }

    private static RouterConfig config(Map<String, String> env) {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withSources(new EnvConfigSource(env, 300))
                .withConverter(Duration.class, 200, new DurationConverter()).withMapping(RouterConfig.class).build();
        return config.getConfigMapping(RouterConfig.class);
    }
}
