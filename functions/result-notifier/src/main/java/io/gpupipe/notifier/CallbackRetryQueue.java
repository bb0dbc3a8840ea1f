package io.gpupipe.notifier;

import io.gpupipe.notifier.domain.CallbackRedelivery;
import java.time.Duration;

/** The queue of delayed callback redeliveries. */
public interface CallbackRetryQueue {
    /** False when no retry queue is configured (nothing was queued). */
    boolean isConfigured();

    /**
     * Queues {@code message} to arrive after {@code delay} (at most 900 s).
     *
     * @throws io.gpupipe.notifier.exception.NotifierAwsException when SQS refused it
     */
    void schedule(CallbackRedelivery.Message message, Duration delay);
}
