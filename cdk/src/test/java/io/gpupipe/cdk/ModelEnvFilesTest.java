package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The model images are built from native-build/models/{@code <tier>}.env and deployed by the CDK app from
 * {@link Tiers}: the two must name the same repository and image tag, or a deployment runs an image nobody built
 * (or fails to find it). deploy.yml passes each file's MODEL_REVISION as {@code -c <tier>ModelRevision}, so each must
 * be a pinned commit, and there is exactly one file per catalogue tier (the workflow loops over the files).
 */
class ModelEnvFilesTest {
    private static final Path MODELS = Path.of("..", "native-build", "models");

    @Test
    void everyCatalogueTier_shouldHaveAModelEnvFile_pinnedAndMatchingTiersJava() throws IOException {
        for (Tier tier : TierCatalogue.bundled().names()) {
            Map<String, String> env = read(MODELS.resolve(tier.wireName() + ".env"));
            Tiers.ServedModel model = Tiers.model(tier.wireName());

            assertThat(env.get("MODEL_REPO")).as("%s.env MODEL_REPO", tier).isEqualTo(model.repository());
            assertThat(env.get("IMAGE_TAG")).as("%s.env IMAGE_TAG", tier).isEqualTo(model.imageTag());
            assertThat(env.get("MODEL_REVISION")).as("%s.env MODEL_REVISION", tier).matches("[0-9a-f]{40}");
            assertThat(env.get("VLLM_IMAGE")).as("%s.env VLLM_IMAGE", tier).matches(switch (Tiers.of(
                    tier.wireName()).contract()) {
                case TEXT -> "vllm/vllm-openai:v\\d+\\.\\d+\\.\\d+";
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

    /** KEY=VALUE lines, as build.sh and deploy.yml {@code source} them (comments and blank lines skipped). */
    private static Map<String, String> read(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            String trimmed = line.strip();
            if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
                int eq = trimmed.indexOf('=');
                values.put(trimmed.substring(0, eq), trimmed.substring(eq + 1));
            }
        }
        return values;
    }
}
