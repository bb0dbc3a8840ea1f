package io.gpupipe.notifier;

import io.gpupipe.notifier.domain.CallbackRedelivery;
import java.time.Duration;

/** The callback queue: every callback's deliveries, the first one at once and each retry after a delay. */
public interface CallbackRetryQueue {
    /** False when no retry queue is configured (nothing was queued). */
    boolean isConfigured();

    /**
     * Queues {@code message} to arrive after {@code delay} (at most 900 s), in the message group of the job's
     * {@code owner} (null: none), so that on a fair queue one caller's failing callbacks never delay another's.
     *
     * @throws io.gpupipe.notifier.exception.NotifierAwsException when SQS refused it
     */
    void schedule(CallbackRedelivery.Message message, String owner, Duration delay);
}
