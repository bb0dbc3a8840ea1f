package io.gpupipe.router;

import io.gpupipe.model.FieldError;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.JobView;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.cache.CacheEntry;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Native image: the documents the router reads and writes with Jackson (shared model and API bodies). */
@RegisterForReflection(targets = {
    InferenceJob.class, JobState.class, JobResult.class, JobResult.Output.class, JobResult.Usage.class,
    JobResult.JobError.class, JobView.class, FieldError.class, JobStatus.class, Task.class, Tier.class,
    ErrorResponse.class, SubmitResponse.class, InferResponse.class, JobStatusResponse.class, CacheEntry.class})
public final class ReflectionConfig {
    private ReflectionConfig() {
    }
}
