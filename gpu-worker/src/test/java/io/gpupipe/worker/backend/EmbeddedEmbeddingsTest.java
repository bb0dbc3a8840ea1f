package io.gpupipe.worker.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.Task;
import io.gpupipe.model.embedding.EmbeddingFields;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.worker.backend.embedded.EmbeddedBackend;
import io.gpupipe.worker.support.TestModels;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Real llama.cpp embeddings (de.kherud:llama, mean pooling) from the TinyStories GGUF, as the local stack's tier. */
class EmbeddedEmbeddingsTest {
    private static final Optional<Path> GGUF = TestModels.storiesGguf();
    /** stories260K's embedding length ({@code llama.embedding_length} in its GGUF header). */
    private static final int STORIES_260K_DIMENSIONS = 64;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static EmbeddedBackend embedding;

    @BeforeAll
    static void load() {
        if (GGUF.isPresent()) {
            embedding = new EmbeddedBackend(new EmbeddedBackend.Settings(GGUF, "kevin16", 512, 2, Optional.empty(),
                    Optional.empty(), true));
            embedding.ensureReady();
        }
    }

    @AfterAll
    static void close() {
        if (embedding != null) {
            embedding.close();
        }
    }

    @Test
    void embed_shouldGiveOneVectorOfTheModelsLengthPerInput_theSameForTheSameText() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);

        Embeddings first = embedding.embed(job("Once upon a time", "there was a cat", "Once upon a time"), TIMEOUT);
        Embeddings again = embedding.embed(job("Once upon a time"), TIMEOUT);

        assertThat(first.vectors()).hasSize(3).allSatisfy(v -> assertThat(v).hasSize(STORIES_260K_DIMENSIONS));
        assertThat(first.vectors().get(0)).containsExactly(first.vectors().get(2))
                .containsExactly(again.vectors().get(0));
        assertThat(first.vectors().get(0)).isNotEqualTo(first.vectors().get(1));
        assertThat(first.promptTokens()).isGreaterThan(again.promptTokens() * 2);
        assertThat(embedding.identity(Task.EMBED).version()).startsWith("sha256:");
    }

    @Test
    void generate_shouldFailNotConfigured_onAWorkerThatLoadedItsModelForEmbeddings() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);

        InferenceJob text = new InferenceJob(UUID.randomUUID().toString(), Task.GENERATE, "Hello", 4, 0.0, 1.0, null,
                null, null, null, null, null);

        assertThatThrownBy(() -> embedding.generate(text, TIMEOUT)).isInstanceOfSatisfying(ModelException.class,
                e -> assertThat(e.failure().code()).isEqualTo(ErrorCodes.MODEL_UNAVAILABLE));
    }

    private static InferenceJob job(String... inputs) {
        return InferenceJob.embedding(UUID.randomUUID().toString(), new EmbeddingFields(List.of(inputs), null, null),
                null, null, null, null, null, null);
    }
}
