package io.gpupipe.worker;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;

/** The figures of one delivery, written as one JSON log line and one EMF line. */
public record JobEvent(String requestId, Tier tier, Task task, JobOutcome outcome, String errorCode, int attempts,
                       long queueWaitMs, long inferenceMs, long processingMs, int promptTokens, int completionTokens,
                       int modelCalls, String model, String modelVersion, String taskArn) {
}
