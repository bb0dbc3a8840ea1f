package io.gpupipe.router;

import io.gpupipe.model.FieldError;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.JobView;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.batch.BatchError;
import io.gpupipe.model.batch.BatchMember;
import io.gpupipe.model.batch.BatchObject;
import io.gpupipe.model.batch.BatchPlan;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.batch.RequestCounts;
import io.gpupipe.model.cache.CacheEntry;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Native image: the documents the router reads and writes with Jackson (shared model and API bodies). */
@RegisterForReflection(targets = {
    InferenceJob.class, JobState.class, JobResult.class, JobResult.Output.class, JobResult.Usage.class,
    JobResult.JobError.class, JobView.class, FieldError.class, JobStatus.class, Task.class, Tier.class,
    ErrorResponse.class, SubmitResponse.class, InferResponse.class, JobStatusResponse.class,
    BatchState.class, BatchObject.class, BatchObject.Errors.class, BatchError.class, BatchPlan.class, ChunkPlan.class,
    ChunkPlan.Duplicate.class, RequestCounts.class, BatchTask.class, BatchMember.class, UploadResponse.class,
    CacheEntry.class})
public final class ReflectionConfig {
    private ReflectionConfig() {
    }
}
