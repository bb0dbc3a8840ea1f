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
 * {@code GPUPIPE_ROUTER_MODEL_VERSIONS_<TIER>}: SAM sets one only for a tier whose model a deployment pinned; the
 * router starts without the others (no cache for those tiers) and refuses a key that names no tier.
 */
class RouterModelVersionsConfigTest {

    @Test
    void modelVersions_shouldHoldOnlyTheTiersWithAVersion_whenSamOmitsTheOthers() {
        // given: SAM sets GPUPIPE_ROUTER_MODEL_VERSIONS_<TIER> only for a non-empty <Tier>ModelVersion
        Map<String, String> env = required();
        env.put("GPUPIPE_ROUTER_MODEL_VERSIONS_SMALL", "repo@" + "a".repeat(40) + "+small-1");
        // when
        Map<Tier, String> versions = RouterBeans.modelVersions(TierCatalogue.bundled(), config(env).modelVersions());
        // then: large and speech are never looked up
        assertThat(versions).containsOnlyKeys(Tier.of("small"));
        assertThat(RouterBeans.modelVersions(TierCatalogue.bundled(), config(required()).modelVersions())).isEmpty();
    }

    @Test
    void startUp_shouldFail_whenAModelVersionIsTheEmptyString_whichIsWhySamOmitsAnEmptyOne() {
        // the reason for the template's !If [Has<Tier>ModelVersion, ..., !Ref AWS::NoValue]: SmallRye Config treats
        // an empty value as missing, and a missing map value fails the mapping (SRCFG00040)
        Map<String, String> env = required();
        env.put("GPUPIPE_ROUTER_MODEL_VERSIONS_LARGE", "");
        assertThatThrownBy(() -> config(env)).hasMessageContaining("gpupipe.router.model-versions.large");
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
