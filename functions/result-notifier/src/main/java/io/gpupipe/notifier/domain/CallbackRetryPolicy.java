package io.gpupipe.notifier.domain;

import io.gpupipe.model.retry.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How a callback is retried: at most {@code maxAttempts} tries; a 2xx answer is delivered; 408, 425, 429 and 5xx
 * answers and network errors or timeouts are retried after an exponential backoff ({@code initialBackoff}, doubled
 * each time, capped at {@code maxBackoff}); any other answer (other 4xx, or a 3xx, since redirects are not followed)
 * is final. Deterministic on purpose: one notifier call sends one callback per record, so there is no herd to jitter.
 */
public record CallbackRetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {

    /** What to do after one attempt. */
    public enum Verdict {
        DELIVERED, RETRY, GIVE_UP
    }

    public CallbackRetryPolicy {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
        }
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("need 0 <= initialBackoff <= maxBackoff, got " + initialBackoff
                    + " / " + maxBackoff);
        }
    }

    /** The verdict for an HTTP status code. */
    public Verdict onStatus(int status) {
        if (status >= 200 && status < 300) {
            return Verdict.DELIVERED;
        }
        if (status == 408 || status == 425 || status == 429 || (status >= 500 && status < 600)) {
            return Verdict.RETRY;
        }
        return Verdict.GIVE_UP;
    }

    /** The attempts and pauses of one run, as every retry loop has them. */
    public RetryPolicy attempts() {
        return RetryPolicy.exponential(maxAttempts, initialBackoff, maxBackoff);
    }

    /** True when another attempt may follow {@code attemptsMade} failed ones. */
    public boolean mayRetryAfter(int attemptsMade) {
        return attempts().allowsAnotherAfter(attemptsMade);
    }

    /** The pause before attempt {@code attemptsMade + 1}: initial × 2^(attemptsMade − 1), capped. */
    public Duration backoffAfter(int attemptsMade) {
        return attemptsMade < 1 ? Duration.ZERO : attempts().capAfter(attemptsMade);
    }
}
