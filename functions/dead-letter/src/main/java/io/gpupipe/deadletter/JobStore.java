package io.gpupipe.deadletter;

import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import java.util.Optional;

/** The job's marker and result in the results bucket. */
public interface JobStore {
    /** The marker {@code jobs/{id}.json}; empty when absent or unreadable. */
    Optional<JobState> readMarker(String requestId);

    /** Writes {@code results/{id}.json} create-only; false when a result already exists. */
    boolean putResultIfAbsent(JobResult result);
}
