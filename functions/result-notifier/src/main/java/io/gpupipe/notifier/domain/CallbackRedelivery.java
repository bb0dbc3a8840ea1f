package io.gpupipe.notifier.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Durable delivery of a callback from the callback queue: the first delivery (n = 0) arrives at once; after a failed
 * attempt, redelivery n is delayed {@code firstDelay} × 2^(n−1), capped at SQS's largest per-message delay (900 s, the
 * DelaySeconds maximum in the SQS API reference), until {@code giveUpAfter} has passed since the callback was queued;
 * then the callback is undeliverable. Defaults (30 s, 24 h) give ~100 redeliveries, every 15 minutes after the first hour.
 */
public record CallbackRedelivery(Duration firstDelay, Duration giveUpAfter) {
    /** SQS SendMessage DelaySeconds: 0 to 900. */
    public static final Duration SQS_MAX_DELAY = Duration.ofSeconds(900);

    public CallbackRedelivery {
        Objects.requireNonNull(firstDelay, "firstDelay");
        Objects.requireNonNull(giveUpAfter, "giveUpAfter");
        if (firstDelay.isNegative() || firstDelay.compareTo(SQS_MAX_DELAY) > 0) {
            throw new IllegalArgumentException("firstDelay must be 0..900 s, got " + firstDelay);
        }
    }

    /** The delay before redelivery {@code n} (1-based), or empty when it would start after the deadline. */
    public Optional<Duration> delayBefore(int n, Instant firstFailure, Instant now) {
        int doublings = Math.min(Math.max(n, 1) - 1, 20);
        Duration delay = firstDelay.multipliedBy(1L << doublings);
        Duration capped = delay.compareTo(SQS_MAX_DELAY) > 0 ? SQS_MAX_DELAY : delay;
        return now.plus(capped).isAfter(firstFailure.plus(giveUpAfter)) ? Optional.empty() : Optional.of(capped);
    }

    /**
     * The callback queue's message: which result's callback to deliver, and how often it has been redelivered (0: the
     * first delivery). {@code firstFailedAt} is when the callback was handed to the queue, where its give-up window
     * starts (the name is kept from when only failed callbacks were queued, so messages in flight still read).
     */
    public record Message(String bucket, String key, String requestId, int redelivery, Instant firstFailedAt) {
        public Message {
            Objects.requireNonNull(bucket, "bucket");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(firstFailedAt, "firstFailedAt");
        }

        public Message next() {
            return new Message(bucket, key, requestId, redelivery + 1, firstFailedAt);
        }
    }
}
