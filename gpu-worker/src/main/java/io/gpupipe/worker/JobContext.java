package io.gpupipe.worker;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.backend.ModelIdentity;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** One delivery being processed: the message, when processing started, and how long the job had queued. */
record JobContext(InFlightMessage inFlight, Instant startedAt, long queueWaitMs) {

    QueueMessage message() {
        return inFlight.message();
    }

    int attempts() {
        return inFlight.message().receiveCount();
    }

    long processingMs(Clock clock) {
        return Math.max(0, Duration.between(startedAt, clock.instant()).toMillis());
    }

    JobResult.Provenance provenance(Tier tier, ModelIdentity model, String taskArn, Clock clock) {
        return new JobResult.Provenance(tier, model == null ? null : model.model(),
                model == null ? null : model.version(), taskArn, attempts(), queueWaitMs, processingMs(clock));
    }

    JobEvent event(InferenceJob job, Task task, Tier tier, JobOutcome outcome, String errorCode, ModelIdentity model,
                   String taskArn, Clock clock, Usage usage) {
        return new JobEvent(job == null ? "unknown" : job.requestId(), tier, task, outcome, errorCode, attempts(),
                queueWaitMs, usage.inferenceMs(), processingMs(clock), usage.promptTokens(),
                usage.completionTokens(), usage.calls(), model == null ? null : model.model(),
                model == null ? null : model.version(), taskArn);
    }

    /** Model figures of the delivery (zeros when inference did not run). */
    record Usage(int calls, long inferenceMs, int promptTokens, int completionTokens) {
        static final Usage NONE = new Usage(0, 0, 0, 0);
    }
}
