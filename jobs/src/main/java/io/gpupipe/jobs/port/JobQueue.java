package io.gpupipe.jobs.port;

import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tier queues. An outage throws {@link QueueUnavailableException}; a message SQS refuses as a client error throws
 * {@link QueueRejectedMessageException}.
 */
public interface JobQueue {
    /** Sends {@code job} to the queue of {@code tier} with tier/task/priority attributes; returns the message id. */
    String send(InferenceJob job, Tier tier);

    /**
     * Sends {@code jobs} to the queue of {@code tier} as {@link #send} would (SQS: in as few batched calls as it
     * allows); never throws for a job that could not be sent: it is in the answer, by requestId (empty when all were
     * sent). This default sends them one by one.
     */
    default Map<String, SendFailure> sendAll(Tier tier, List<InferenceJob> jobs) {
        Map<String, SendFailure> failures = new LinkedHashMap<>();
        for (InferenceJob job : jobs) {
            try {
                send(job, tier);
            } catch (QueueRejectedMessageException e) {
                failures.put(job.requestId(), new SendFailure(true, e.getMessage()));
            } catch (QueueUnavailableException | StoreUnavailableException e) {
                failures.put(job.requestId(), new SendFailure(false, e.getMessage()));
            }
        }
        return failures;
    }

    /** Why one job of {@link #sendAll} was not sent: {@code rejected} when SQS refused it (a bug, not an outage). */
    record SendFailure(boolean rejected, String reason) {
    }
}
