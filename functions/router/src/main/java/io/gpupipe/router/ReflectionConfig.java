package io.gpupipe.router;

import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.batch.BatchObject;
import io.gpupipe.model.job.JobView;
import io.gpupipe.model.usage.UsageReport;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Native image: the documents the router reads and writes with Jackson (shared model and API bodies); the stored
 * documents are registered once by the adapters ({@link io.gpupipe.adapters.StoredDocuments}).
 */
@RegisterForReflection(targets = {JobView.class, FieldError.class, JobStatus.class, Task.class, Tier.class,
    ErrorResponse.class, SubmitResponse.class, InferResponse.class, JobStatusResponse.class, BatchObject.class,
    BatchObject.Errors.class, UploadResponse.class, UsageReport.class, UsageReport.Line.class,
    UsageReport.Jobs.class})
public final class ReflectionConfig {
    private ReflectionConfig() {
    }
}
