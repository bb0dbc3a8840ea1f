package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The model images are built from native-build/models/{@code <tier>}.env and the CDK app deploys what the same file
 * names ({@link ModelEnvFile}): each must be a pinned commit with the model server image of its contract, and there
 * is exactly one file per catalogue tier (the workflow loops over the files).
 */
class ModelEnvFilesTest {
    private static final Path MODELS = Path.of("..", "native-build", "models");

    @Test
    void everyCatalogueTier_shouldHaveAModelEnvFile_pinnedAndMatchingTiersJava() throws IOException {
        for (Tier tier : TierCatalogue.bundled().names()) {
            Map<String, String> env = ModelEnvFile.parse(MODELS.resolve(tier.wireName() + ".env"));
            ServedModel model = Tiers.model(tier.wireName());

            assertThat(model.repository()).as("%s.env MODEL_REPO", tier).isEqualTo(env.get("MODEL_REPO"));
            assertThat(model.imageTag()).as("%s.env IMAGE_TAG", tier).isEqualTo(env.get("IMAGE_TAG"));
            assertThat(model.revision()).as("%s.env MODEL_REVISION", tier).isEqualTo(env.get("MODEL_REVISION"));
            assertThat(env.get("MODEL_REVISION")).as("%s.env MODEL_REVISION", tier).matches("[0-9a-f]{40}");
            assertThat(env.get("VLLM_IMAGE")).as("%s.env VLLM_IMAGE", tier).matches(switch (Tiers.of(
                    tier.wireName()).contract()) {
                case TEXT, EMBEDDING -> "vllm/vllm-openai:v\\d+\\.\\d+\\.\\d+";
                case SPEECH -> "vllm/vllm-omni:v\\d+\\.\\d+\\.\\d+";
            });
        }
        try (Stream<Path> files = Files.list(MODELS)) {
            List<String> tiers = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".env"))
                    .map(n -> n.substring(0, n.length() - ".env".length())).sorted().toList();
            assertThat(tiers).as("one env file per catalogue tier, no other")
                    .containsExactlyInAnyOrderElementsOf(TierCatalogue.bundled().names().stream()
                            .map(Tier::wireName).toList());
        }
    }
}
