package io.gpupipe.deadletter;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Types Jackson reads or writes by reflection, kept for native images. */
@RegisterForReflection(targets = {SQSEvent.class, SQSEvent.SQSMessage.class, SQSEvent.MessageAttribute.class,
        SQSBatchResponse.class, SQSBatchResponse.BatchItemFailure.class, JobResult.class, JobResult.JobError.class,
        JobResult.Output.class, JobResult.Usage.class, JobState.class})
public final class NativeReflection {
    private NativeReflection() {
    }
}
