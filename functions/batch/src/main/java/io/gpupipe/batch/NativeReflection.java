package io.gpupipe.batch;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.model.batch.BatchError;
import io.gpupipe.model.batch.BatchMember;
import io.gpupipe.model.batch.BatchPlan;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.batch.LineError;
import io.gpupipe.model.batch.OutputLine;
import io.gpupipe.model.batch.RequestCounts;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Types Jackson reads or writes by reflection, kept for native images. */
@RegisterForReflection(targets = {SQSEvent.class, SQSEvent.SQSMessage.class, SQSEvent.MessageAttribute.class,
        SQSBatchResponse.class, SQSBatchResponse.BatchItemFailure.class, InferenceJob.class, ChatMessage.class,
        JobState.class, JobResult.class, JobResult.Output.class, JobResult.Usage.class, JobResult.JobError.class,
        FieldError.class, BatchState.class, BatchPlan.class, ChunkPlan.class, ChunkPlan.Duplicate.class,
        BatchError.class, RequestCounts.class, BatchTask.class, BatchMember.class, ChunkManifest.class,
        ChunkManifest.Entry.class, LineError.class, OutputLine.class, OutputLine.Response.class,
        OutputLine.Error.class})
public final class NativeReflection {
    private NativeReflection() {
    }
}
