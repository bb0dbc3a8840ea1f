package io.gpupipe.localstack;

import java.nio.file.Path;

/** Paths the tests use: the repository root (Maven passes it) and the shared TinyStories model beside it. */
final class TestPaths {
    private TestPaths() {
    }

    static Path repo() {
        return Launcher.repo();
    }

    /** {@code ../shared/models/stories260K.gguf} seen from the repository root. */
    static Path sharedModel() {
        return repo().resolve("../shared/models/stories260K.gguf").normalize();
    }
}
