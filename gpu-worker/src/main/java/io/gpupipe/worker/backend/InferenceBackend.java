package io.gpupipe.worker.backend;

import io.gpupipe.model.Task;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.worker.consumption.ServerLoad;
import java.time.Duration;
import java.util.Optional;

/**
 * A model server the worker sends jobs to: an OpenAI-compatible server over HTTP, or models embedded in this JVM.
 * Calls may run concurrently; each call fails with {@link ModelException} carrying a classified failure.
 */
public interface InferenceBackend extends AutoCloseable {

    /** Connects or loads the models; throws {@link ModelException} while the backend cannot serve yet. */
    void ensureReady();

    /** False when this backend has no model for the task (the job then fails with model_unavailable). */
    boolean supports(Task task);

    /** The model and version recorded in results of jobs of this task. */
    ModelIdentity identity(Task task);

    Generation generate(InferenceJob job, Duration timeout);

    SpeechAudio speak(InferenceJob job, Duration timeout);

    /** The model's vectors of an embedding job's inputs, at the model's own length. */
    Embeddings embed(InferenceJob job, Duration timeout);

    /** The server's current batch and queue, when it exports them (drives the adaptive window). */
    Optional<ServerLoad> load();

    @Override
    void close();
}
