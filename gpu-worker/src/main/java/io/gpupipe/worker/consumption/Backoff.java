package io.gpupipe.worker.consumption;

import io.gpupipe.model.retry.RetryPolicy;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with "equal jitter": the n-th wait (n from 1) is uniformly drawn from [cap/2, cap] where
 * {@code cap = min(max, initial * 2^(n-1))}. Half of the wait is guaranteed, so retries never stampede,
 * and the random half spreads the workers that failed together. The pauses are {@link RetryPolicy}'s, as in every
 * other retry loop; this names the two a worker configures (model calls, requeue delays).
 */
public record Backoff(Duration initial, Duration max) {

    public Backoff {
        if (initial == null || max == null || initial.isNegative() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 <= initial <= max, got " + initial + " and " + max);
        }
    }

    public static Backoff exponential(Duration initial, Duration max) {
        return new Backoff(initial, max);
    }

    /** The upper bound of the {@code n}-th wait, before jitter. */
    public Duration cap(int n) {
        return policy().capAfter(n);
    }

    /** The {@code n}-th wait; {@code random} returns values in [0, 1). */
    public Duration delay(int n, DoubleSupplier random) {
        return policy().delayAfter(n, random);
    }

    private RetryPolicy policy() {
        return RetryPolicy.exponential(RetryPolicy.UNLIMITED, initial, max).withJitter(RetryPolicy.Jitter.EQUAL);
    }
}
