package io.gpupipe.worker;

import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import java.util.Optional;

/** The results bucket as the worker uses it (S3 behind {@code io.gpupipe.worker.aws.S3JobStore}). */
public interface JobStore {

    boolean resultExists(String requestId);

    Optional<JobState> readMarker(String requestId);

    void writeMarker(JobState marker);

    /** Writes the terminal result only if none exists ({@code If-None-Match: *}); false when another won. */
    boolean putResultIfAbsent(JobResult result);

    /** Writes the speech audio only if none exists; false when audio from another delivery is already there. */
    boolean putAudioIfAbsent(String requestId, byte[] wav);

    /** The first {@code length} bytes of the stored audio (its WAV header), if any. */
    Optional<byte[]> readAudioHead(String requestId, int length);
}
