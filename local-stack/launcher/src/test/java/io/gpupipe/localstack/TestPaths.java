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
     * {@code ../shared/models/stories260K.gguf} seen from the repository root, or the file env
     * {@code GPUPIPE_TEST_GGUF} names (as the worker's tests take it: a git worktree has no {@code shared/} beside it).
     */
    static Path sharedModel() {
        String env = System.getenv("GPUPIPE_TEST_GGUF");
        if (env != null && !env.isBlank()) {
            return Path.of(env).toAbsolutePath().normalize();
        }
        return repo().resolve("../shared/models/stories260K.gguf").normalize();
    }
}
