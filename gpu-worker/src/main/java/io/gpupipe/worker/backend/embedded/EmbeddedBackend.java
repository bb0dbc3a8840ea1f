package io.gpupipe.worker.backend.embedded;

import io.gpupipe.model.Task;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.serving.EmbeddedModels;
import io.gpupipe.worker.backend.Embeddings;
import io.gpupipe.worker.backend.Generation;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.backend.ModelException;
import io.gpupipe.worker.backend.ModelIdentity;
import io.gpupipe.worker.backend.SpeechAudio;
import io.gpupipe.worker.consumption.ModelFailure;
import io.gpupipe.worker.consumption.ServerLoad;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The local backend (no GPU): speech with FreeTTS, text and embeddings with llama.cpp from a GGUF file (an
 * embedding tier's worker loads it in embedding mode). Without a GGUF file,
 * {@code generate} jobs fail with model_unavailable and say how to configure one; speech still works.
 */
public final class EmbeddedBackend implements InferenceBackend {
    static final String NO_TEXT_MODEL = "no text model configured on this worker: set "
            + "gpupipe.worker.embedded.text-model-path (env GPUPIPE_WORKER_EMBEDDED_TEXT_MODEL_PATH) to a GGUF "
            + "file, or use gpupipe.worker.backend=openai with a model server";

    private final Settings settings;
    private volatile FreeTtsSpeech speech;
    private volatile LlamaText text;
    private volatile LlamaEmbeddings embeddings;
    private volatile ModelIdentity textIdentity;

    /**
     * Paths and knobs of the embedded models. {@code embeddingTier}: the worker serves embedding jobs, so the GGUF is
     * loaded in embedding mode instead of for generation.
     */
    public record Settings(Optional<Path> textModelPath, String voice, int contextSize, int threads,
                           Optional<String> model, Optional<String> modelVersion, boolean embeddingTier) {
        /** Settings of a worker that generates text (or speaks). */
        public Settings(Optional<Path> textModelPath, String voice, int contextSize, int threads,
                        Optional<String> model, Optional<String> modelVersion) {
            this(textModelPath, voice, contextSize, threads, model, modelVersion, false);
        }
    }

    public EmbeddedBackend(Settings settings) {
        this.settings = settings;
    }

    /** True once llama.cpp was loaded in this JVM: the process must then end with a hard exit. */
    public static boolean nativeModelLoaded() {
        return LlamaText.nativeModelLoaded();
    }

    @Override
    public synchronized void ensureReady() {
        if (speech == null) {
            speech = new FreeTtsSpeech(settings.voice());
        }
        if (settings.textModelPath().isPresent() && text == null && embeddings == null) {
            Path gguf = settings.textModelPath().get();
            if (settings.embeddingTier()) {
                embeddings = LlamaEmbeddings.load(gguf, settings.contextSize(), settings.threads());
            } else {
                text = LlamaText.load(gguf, settings.contextSize(), settings.threads());
            }
            String name = gguf.getFileName().toString().replaceFirst("\\.gguf$", "");
            textIdentity = ModelIdentity.pinned(settings.model().orElse(name),
                    settings.modelVersion().orElseGet(() -> ggufVersion(gguf)));
        }
    }

    @Override
    public boolean supports(Task task) {
        return task == Task.SPEECH || settings.textModelPath().isPresent();
    }

    @Override
    public ModelIdentity identity(Task task) {
        if (task == Task.SPEECH) {
            return ModelIdentity.pinned("freetts-" + settings.voice(), EmbeddedModels.FREETTS_VERSION);
        }
        ModelIdentity loaded = textIdentity;
        return loaded != null ? loaded : new ModelIdentity(settings.model().orElse("none"),
                settings.modelVersion().orElse("none"));
    }

    @Override
    public Generation generate(InferenceJob job, Duration timeout) {
        if (settings.textModelPath().isEmpty()) {
            throw new ModelException(ModelFailure.notConfigured(NO_TEXT_MODEL));
        }
        ensureReady();
        if (text == null) {
            throw new ModelException(ModelFailure.notConfigured("this worker loaded its GGUF for embeddings; text "
                    + "jobs go to a text tier's worker"));
        }
        return text.generate(job, timeout);
    }

    @Override
    public Embeddings embed(InferenceJob job, Duration timeout) {
        if (settings.textModelPath().isEmpty()) {
            throw new ModelException(ModelFailure.notConfigured(NO_TEXT_MODEL));
        }
        ensureReady();
        if (embeddings == null) {
            throw new ModelException(ModelFailure.notConfigured("this worker loaded its GGUF for text generation; "
                    + "embedding jobs go to the embedding tier's worker"));
        }
        return embeddings.embed(job.input(), timeout);
    }

    @Override
    public SpeechAudio speak(InferenceJob job, Duration timeout) {
        ensureReady();
        return speech.speak(job.prompt());
    }

    @Override
    public Optional<ServerLoad> load() {
        return Optional.empty();
    }

    @Override
    public synchronized void close() {
        if (text != null) {
            text.close();
            text = null;
        }
        if (embeddings != null) {
            embeddings.close();
            embeddings = null;
        }
        if (speech != null) {
            speech.close();
            speech = null;
        }
    }

    private static String ggufVersion(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return EmbeddedModels.ggufVersion(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
