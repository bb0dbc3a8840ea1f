package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.localstack.internal.ComponentEnvironment;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.serving.EmbeddedModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The model versions the local stack hands the router are the ones its embedded workers claim, so the router's
 * cache look-ups find the workers' entries (the worker's own EmbeddedBackendTest pins the same GGUF's version).
 */
class LocalModelVersionsTest {
    private static final Path GGUF = TestPaths.sharedModel();

    @Test
    void modelVersions_shouldBeFreeTtsForSpeechAndTheGgufDigestForText_whenTheBackendIsEmbedded() {
        assumeTrue(Files.isRegularFile(GGUF), "skipped: no ../shared/models/stories260K.gguf");
        // when
        Map<Tier, String> versions = ComponentEnvironment.modelVersions(TierCatalogue.bundled(), Backend.EMBEDDED,
                GGUF);
        // then
        assertThat(versions).containsEntry(Tier.of("speech"), EmbeddedModels.FREETTS_VERSION)
                .containsEntry(Tier.of("small"), "sha256:270cba1bd510")
                .containsEntry(Tier.of("large"), "sha256:270cba1bd510");
    }

    @Test
    void modelVersions_shouldLeaveTextTiersUnknown_whenThereIsNoTextModel_andEveryTierWithTheOpenAiBackend() {
        assertThat(ComponentEnvironment.modelVersions(TierCatalogue.bundled(), Backend.EMBEDDED, null))
                .containsOnlyKeys(Tier.of("speech"));
        assertThat(ComponentEnvironment.modelVersions(TierCatalogue.bundled(), Backend.OPENAI, GGUF)).isEmpty();
    }
}
