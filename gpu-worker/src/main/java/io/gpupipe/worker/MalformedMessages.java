package io.gpupipe.worker;

import io.gpupipe.adapters.TierQueue;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.QueuedJob;
import java.time.Clock;
import java.util.Objects;

/**
 * A message {@link QueuedJob} finds malformed (malformed, or a task the tier does not serve): the client gets a
 * {@code failed}/{@code invalid_request} result listing every field error (when the body carried a valid requestId),
 * the raw body goes to the DLQ with the reason.
 */
final class MalformedMessages {
    private final Tier tier;
    private final String taskArn;
    private final TierQueue queue;
    private final WorkerJobStore store;
    private final Clock clock;

    MalformedMessages(Tier tier, String taskArn, TierQueue queue, WorkerJobStore store, Clock clock) {
        this.tier = tier;
        this.taskArn = taskArn;
        this.queue = queue;
        this.store = store;
        this.clock = clock;
    }

    /**
     * A valid message naming a stored id that {@code held}, another owner's job or another request, already has: it
     * gets no result (that id's result is the holder's to write), and goes to the DLQ with the reason. Returns the
     * event of the refusal; the caller deletes the message.
     */
    JobEvent refuseHeldId(JobContext context, InferenceJob job, JobState held) {
        String reason = ErrorCodes.INVALID_REQUEST + ": requestId " + job.requestId() + " is held by "
                + (Objects.equals(held.owner(), job.owner()) ? "another request" : "another owner's job")
                + "; the message was not run and changed nothing of that job";
        queue.sendToDeadLetterQueue(context.message(), reason);
        return new JobEvent(job.requestId(), tier, job.task(), JobOutcome.INVALID, ErrorCodes.INVALID_REQUEST,
                context.attempts(), context.queueWaitMs(), 0, context.processingMs(clock), 0, 0, 0, null, null,
                taskArn);
    }

    /** Returns the event of the rejection; the caller deletes the message. */
    JobEvent reject(JobContext context, QueuedJob.Malformed malformed) {
        String reasons = malformed.reasons();
        Task task = malformed.task().orElse(null);
        malformed.requestId().ifPresent(id -> store.putResultIfAbsent(JobResult.failed(id, task,
                malformed.callbackUrl().orElse(null), new JobResult.JobError(ErrorCodes.INVALID_REQUEST,
                        "the job message is invalid: " + reasons, malformed.errors()),
                context.provenance(tier, null, taskArn, clock), clock.instant())));
        queue.sendToDeadLetterQueue(context.message(), ErrorCodes.INVALID_REQUEST + ": " + reasons);
        String requestId = malformed.requestId().orElse("unknown");
        return new JobEvent(requestId, tier, task, JobOutcome.INVALID, ErrorCodes.INVALID_REQUEST,
                context.attempts(), context.queueWaitMs(), 0, context.processingMs(clock), 0, 0, 0, null, null,
                taskArn);
    }
}
