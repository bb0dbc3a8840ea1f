package io.gpupipe.router.aws;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.Tier;

/**
 * The tier queues. An outage throws {@link io.gpupipe.router.exception.QueueUnavailableException}; a message SQS
 * refuses as a client error throws {@link io.gpupipe.router.exception.QueueRejectedMessageException}.
 */
public interface JobQueue {
    /** Sends {@code job} to the queue of {@code tier} with tier/task/priority attributes; returns the message id. */
    String send(InferenceJob job, Tier tier);
}
