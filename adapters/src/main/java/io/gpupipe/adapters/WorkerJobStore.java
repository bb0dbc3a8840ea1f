package io.gpupipe.adapters;

import io.gpupipe.model.job.JobState;
import java.util.Optional;

/** The results bucket as the worker uses it (S3 behind {@code io.gpupipe.adapters.aws.S3JobStore}). */
public interface WorkerJobStore extends JobResults {

    boolean resultExists(String requestId);

    /**
     * Writes the marker only if the stored one is still the version {@code expected} was read at
     * ({@code If-Match: <etag>}), or, when {@code expected} had no marker, only if there still is none
     * ({@code If-None-Match: *}); false when another writer (e.g. the API's cancel) changed it first.
     */
    boolean replaceMarker(JobState marker, MarkerSnapshot expected);

    /** Writes the speech audio only if none exists; false when audio from another delivery is already there. */
    boolean putAudioIfAbsent(String requestId, byte[] wav);

    /**
     * Writes an embedding job's vectors ({@code results/{id}.embeddings}, OpenAI's embedding response as JSON) only
     * if none exist; false when another delivery's are already there.
     */
    boolean putEmbeddingsIfAbsent(String requestId, byte[] json);

    /** A claim-check payload ({@code payloads/{id}.json}) the router stored for a job too large for a message. */
    Optional<String> readPayload(String key);

    /** The first {@code length} bytes of the stored audio (its WAV header), if any. */
    Optional<byte[]> readAudioHead(String requestId, int length);
}
