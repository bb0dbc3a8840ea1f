package io.gpupipe.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The catalogue's optional {@code cacheByDefault}: false when absent, a JSON boolean when given. */
class TierCacheDefaultTest {
    private static final String TIER = "{\"name\":\"small\",\"queue\":\"q\",\"contract\":\"text\","
            + "\"serves\":[\"generate\"],\"modelTimeoutSeconds\":60,\"visibilityTimeoutSeconds\":60,"
            + "\"gpus\":\"1\",\"gpuMemoryMiB\":1,\"taskCpu\":1024,\"taskMemoryMiB\":1024,\"maxTasks\":1,"
            + "\"backlogPerTask\":5,\"maxScaleOutStep\":1,\"scaleInAfterMinutes\":5,\"modelLoadGraceMinutes\":5";
    private static final String SPEECH_TIER = TIER.replace("\"small\"", "\"speech\"").replace("\"q\"", "\"s\"")
            .replace("\"text\"", "\"speech\"").replace("[\"generate\"]", "[\"speech\"]") + "}";
    private static final String EMBED_TIER = TIER.replace("\"small\"", "\"embed\"").replace("\"q\"", "\"e\"")
            .replace("\"text\"", "\"embedding\"").replace("[\"generate\"]", "[\"embed\"]") + "}";

    @Test
    void cacheByDefault_shouldBeFalse_whenTheCatalogueOmitsIt_andOnlyForTheBundledEmbeddingTier() {
        assertThat(catalogue("").get(Tier.of("small")).cacheByDefault()).isFalse();
        // embedding jobs are always deterministic, so their tier answers repeats from the cache
        assertThat(TierCatalogue.bundled().tiers()).filteredOn(TierDefinition::cacheByDefault)
                .extracting(TierDefinition::servedTasks).containsExactly(java.util.List.of(Task.EMBED));
    }

    @Test
    void cacheByDefault_shouldBeRead_whenTheCatalogueSetsIt() {
        assertThat(catalogue(",\"cacheByDefault\":true").get(Tier.of("small")).cacheByDefault()).isTrue();
        assertThat(catalogue(",\"cacheByDefault\":true").get(Tier.of("small")).withMaxTasks(3).cacheByDefault())
                .isTrue();
    }

    @Test
    void cacheByDefault_shouldBeRefusedReadably_whenItIsNotABoolean() {
        assertThatThrownBy(() -> catalogue(",\"cacheByDefault\":\"yes\""))
                .hasMessageContaining("tier small: cacheByDefault must be true or false");
    }

    private static TierCatalogue catalogue(String extra) {
        return TierCatalogue.parse("{\"routing\":{\"default\":{\"generate\":\"small\",\"speech\":\"speech\","
                + "\"embed\":\"embed\"},\"escalation\":\"small\"},\"tiers\":[" + TIER + extra + "}," + SPEECH_TIER
                + "," + EMBED_TIER + "]}");
    }
}
