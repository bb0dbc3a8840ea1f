package io.gpupipe.model.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ModelVersionTest {
    private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

    @ParameterizedTest
    @ValueSource(strings = {"main", "v1.0", "0123456789ABCDEF0123456789ABCDEF01234567", "0123456789abcdef",
        "0123456789abcdef0123456789abcdef012345678"})
    void constructor_shouldRefuseAnythingButACommit(String revision) {
        assertThatThrownBy(() -> new ModelVersion("org/model", revision, "tag-1"))
                .hasMessage("model revision of org/model must be a commit: 40 lower-case hex digits, got \""
                        + revision + "\" (branches and tags move; pin the commit the weights were reviewed at)");
    }

    @org.junit.jupiter.api.Test
    void wireFormAndServedPath_shouldNameTheCommit() {
        ModelVersion version = new ModelVersion("org/model", COMMIT, "small-1");

        assertThat(version.wireForm()).isEqualTo("org/model@" + COMMIT + "+small-1");
        assertThat(version.servedPath()).isEqualTo("/models/" + COMMIT);
    }

    @org.junit.jupiter.api.Test
    void vllmServeCommand_shouldAlwaysEnablePriorityScheduling() {
        assertThat(new VllmServeCommand("m", 4096, 8, 1, "127.0.0.1", 8000).args())
                .containsSequence("--scheduling-policy", "priority")
                .containsSequence("--max-model-len", "4096");
    }
}
