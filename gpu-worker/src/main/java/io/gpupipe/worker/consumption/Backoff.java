package io.gpupipe.worker.consumption;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with "equal jitter": the n-th wait (n from 1) is uniformly drawn from [cap/2, cap] where
 * {@code cap = min(max, initial * multiplier^(n-1))}. Half of the wait is guaranteed, so retries never stampede,
 * and the random half spreads the workers that failed together.
 */
public record Backoff(Duration initial, Duration max, double multiplier) {

    public Backoff {
        if (initial == null || max == null || initial.isNegative() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 <= initial <= max, got " + initial + " and " + max);
        }
        if (multiplier < 1.0) {
            throw new IllegalArgumentException("multiplier must be at least 1, got " + multiplier);
        }
    }

    public static Backoff exponential(Duration initial, Duration max) {
        return new Backoff(initial, max, 2.0);
    }

    /** The upper bound of the {@code n}-th wait, before jitter. */
    public Duration cap(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n starts at 1, got " + n);
        }
        double millis = initial.toMillis() * Math.pow(multiplier, n - 1);
        return millis >= max.toMillis() ? max : Duration.ofMillis((long) millis);
    }

    /** The {@code n}-th wait; {@code random} returns values in [0, 1). */
    public Duration delay(int n, DoubleSupplier random) {
        long cap = cap(n).toMillis();
        double r = Math.min(Math.max(random.getAsDouble(), 0.0), 1.0);
        return Duration.ofMillis(cap / 2 + Math.round((cap - cap / 2) * r));
    }
}
