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
     * {@code ../shared/models/stories260K.gguf} seen from the repository root; the file env {@code GPUPIPE_TEST_GGUF}
     * names (as the worker's tests take it), or the model under the directory the system property
     * {@code gpupipe.shared} names, when set (a checkout elsewhere, such as a git worktree, has no {@code ../shared}).
     */
    static Path sharedModel() {
        String env = System.getenv("GPUPIPE_TEST_GGUF");
        if (env != null && !env.isBlank()) {
            return Path.of(env).toAbsolutePath().normalize();
        }
        String shared = System.getProperty("gpupipe.shared", "");
        Path dir = shared.isBlank() ? repo().resolve("../shared") : Path.of(shared);
        return dir.resolve("models/stories260K.gguf").normalize();
    }
}
