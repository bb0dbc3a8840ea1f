package io.gpupipe.worker.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.Task;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.worker.backend.embedded.EmbeddedBackend;
import io.gpupipe.worker.support.TestModels;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded backend with the real models: FreeTTS kevin16, and llama.cpp on TinyStories when present. */
class EmbeddedBackendTest {
    private static final Optional<Path> GGUF = TestModels.storiesGguf();
    private static EmbeddedBackend withModel;
    private static EmbeddedBackend speechOnly;

    @BeforeAll
    static void load() {
        speechOnly = new EmbeddedBackend(new EmbeddedBackend.Settings(Optional.empty(), "kevin16", 512, 2,
                Optional.empty(), Optional.empty()));
        speechOnly.ensureReady();
        if (GGUF.isPresent()) {
            withModel = new EmbeddedBackend(new EmbeddedBackend.Settings(GGUF, "kevin16", 512, 2,
                    Optional.empty(), Optional.empty()));
            withModel.ensureReady();
        }
    }

    @AfterAll
    static void close() {
        speechOnly.close();
        if (withModel != null) {
            withModel.close();
        }
    }

    @Test
    void speak_shouldSynthesize16kHzMonoWav_withDurationOfTheSpeech() {
        // when
        SpeechAudio audio = speechOnly.speak(job(Task.SPEECH, "Hello from the embedded worker.", 16),
                Duration.ofSeconds(30));
        // then
        Wav.Info info = Wav.parse(audio.wav()).orElseThrow();
        assertThat(info.sampleRate()).isEqualTo(16_000);
        assertThat(info.channels()).isEqualTo(1);
        assertThat(info.bitsPerSample()).isEqualTo(16);
        assertThat(audio.sampleRate()).isEqualTo(16_000);
        assertThat(audio.durationMs()).isBetween(1000L, 4000L).isEqualTo(info.durationMs(audio.wav().length));
        assertThat(speechOnly.identity(Task.SPEECH).model()).isEqualTo("freetts-kevin16");
    }

    @Test
    void generate_shouldFailWithModelUnavailableAndSayHowToConfigure_whenNoGgufConfigured() {
        assertThat(speechOnly.supports(Task.GENERATE)).isFalse();
        assertThatThrownBy(() -> speechOnly.generate(job(Task.GENERATE, "Once upon a time", 8), Duration.ofSeconds(5)))
                .isInstanceOfSatisfying(ModelException.class, e -> {
                    assertThat(e.failure().code()).isEqualTo(ErrorCodes.MODEL_UNAVAILABLE);
                    assertThat(e.failure().retryable()).isFalse();
                    assertThat(e.getMessage()).contains("GPUPIPE_WORKER_EMBEDDED_TEXT_MODEL_PATH")
                            .contains("gpupipe.worker.embedded.text-model-path");
                });
    }

    @Test
    void generate_shouldTellTheKnownStory_whenGreedyFromOnceUponATime() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);
        // when
        Generation generation = withModel.generate(job(Task.GENERATE, "Once upon a time", 40),
                Duration.ofSeconds(60));
        // then
        assertThat("Once upon a time" + generation.text())
                .startsWith("Once upon a time, there was a little girl named Lily.");
        assertThat(generation.completionTokens()).isEqualTo(40);
        assertThat(generation.finishReason()).isEqualTo("length");
        assertThat(generation.promptTokens()).isBetween(4, 6);
        assertThat(withModel.identity(Task.GENERATE).model()).isEqualTo("stories260K");
        assertThat(withModel.identity(Task.GENERATE).version()).isEqualTo("sha256:270cba1bd510");
    }

    @Test
    void generate_shouldBeReproducible_whenGreedyAndRepeated() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);
        InferenceJob job = job(Task.GENERATE, "Once upon a time", 24);
        String first = withModel.generate(job, Duration.ofSeconds(60)).text();
        String second = withModel.generate(job, Duration.ofSeconds(60)).text();
        assertThat(second).isEqualTo(first);
    }

    @Test
    void generate_shouldTimeOut_whenTheBudgetIsTooShort() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);
        assertThatThrownBy(() -> withModel.generate(job(Task.GENERATE, "Once upon a time", 400),
                Duration.ofMillis(30)))
                .isInstanceOfSatisfying(ModelException.class,
                        e -> assertThat(e.failure().code()).isEqualTo(ErrorCodes.MODEL_TIMEOUT));
    }

    private static InferenceJob job(Task task, String prompt, int maxTokens) {
        return new InferenceJob(UUID.randomUUID().toString(), task, prompt, maxTokens, 0.0, 1.0, null, null, null,
                null, null, null);
    }
}
