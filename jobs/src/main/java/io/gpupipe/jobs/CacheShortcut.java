package io.gpupipe.jobs;

import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import java.util.Optional;

/** A job answered without being sent once its marker is claimed (the router's result cache). */
@FunctionalInterface
public interface CacheShortcut {
    /** Never answers: every job is sent. */
    CacheShortcut NONE = (job, tier) -> Optional.empty();

    /** The job's stored result when it is answered without a queue or a model; empty to send it. */
    Optional<JobResult> answer(InferenceJob job, Tier tier);
}
