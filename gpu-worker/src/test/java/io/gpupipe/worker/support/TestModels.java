package io.gpupipe.worker.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the TinyStories GGUF used by tests: {@code shared/models/stories260K.gguf} next to the repository
 * (../shared from the repository root), or the path in env {@code GPUPIPE_TEST_GGUF}. Tests skip without it.
 */
public final class TestModels {
    public static final String MISSING = "stories260K.gguf not found (looked for ../shared/models/stories260K.gguf "
            + "from the repository root and env GPUPIPE_TEST_GGUF): skipping the llama.cpp part";

    private TestModels() {
    }

    public static Optional<Path> storiesGguf() {
        String env = System.getenv("GPUPIPE_TEST_GGUF");
        if (env != null && Files.isRegularFile(Path.of(env))) {
            return Optional.of(Path.of(env));
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("models").resolve("stories260K.gguf");
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
