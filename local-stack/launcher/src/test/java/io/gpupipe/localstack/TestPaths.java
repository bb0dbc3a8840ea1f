package io.gpupipe.localstack;

import java.nio.file.Path;

/** Paths the tests use: the repository root (Maven passes it) and the shared TinyStories model beside it. */
final class TestPaths {
    private TestPaths() {
    }

    static Path repo() {
        return Launcher.repo();
    }

    /**
     * The TinyStories GGUF: the file env {@code GPUPIPE_TEST_GGUF} names (docs/development.md; a git worktree beside
     * the main checkout has no {@code ../shared}), else {@code ../shared/models/stories260K.gguf} seen from the
     * repository root.
     */
    static Path sharedModel() {
        String named = System.getenv("GPUPIPE_TEST_GGUF");
        if (named != null && !named.isBlank()) {
            return Path.of(named).toAbsolutePath().normalize();
        }
        return repo().resolve("../shared/models/stories260K.gguf").normalize();
    }
}
