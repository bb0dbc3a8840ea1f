package io.gpupipe.adapters;

import io.gpupipe.model.job.JobResult;

/**
 * Settling a job: its marker as read and its one terminal result, written create-only. The role every writer of a
 * result plays (the worker, the dead-letter function, the router's cache hits); {@code S3JobStore} implements it
 * with {@link JobStore} and {@link WorkerJobStore}, one class over the same documents.
 */
public interface JobResults {
    /** The marker with the ETag it was read at; {@link MarkerSnapshot#ABSENT} when there is none. */
    MarkerSnapshot markerSnapshot(String requestId);

    /**
     * Writes the terminal result only if none exists ({@code If-None-Match: *}); false when another writer's is there
     * (true when the stored object is exactly ours: the SDK retried a PUT that S3 had stored).
     */
    boolean putResultIfAbsent(JobResult result);
}
