package io.gpupipe.worker.consumption;

import java.time.Duration;
import java.time.Instant;
import java.util.function.DoubleSupplier;

/**
 * The time and call budget of one job's inference on one delivery: calls share {@code budget} (the tier's model
 * timeout, so a single call may use all of it), and failed calls are retried with {@link Backoff} while both
 * calls and time remain.
 */
public final class RetryBudget {
    /** A retry is pointless when less than this is left for the call after the wait. */
    public static final Duration MIN_CALL_TIME = Duration.ofMillis(100);

    private final Instant deadline;
    private final int maxCalls;
    private final Backoff backoff;

    private RetryBudget(Instant deadline, int maxCalls, Backoff backoff) {
        this.deadline = deadline;
        this.maxCalls = maxCalls;
        this.backoff = backoff;
    }

    public static RetryBudget start(Instant now, Duration budget, int maxCalls, Backoff backoff) {
        if (budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("budget must be positive, got " + budget);
        }
        if (maxCalls < 1) {
            throw new IllegalArgumentException("maxCalls must be at least 1, got " + maxCalls);
        }
        return new RetryBudget(now.plus(budget), maxCalls, backoff);
    }

    public Instant deadline() {
        return deadline;
    }

    /** How long the next call may take: whatever is left of the budget (never negative). */
    public Duration callTimeout(Instant now) {
        Duration left = Duration.between(now, deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** What to do after call number {@code callsMade} (from 1) failed with {@code failure} at {@code now}. */
    public Decision afterFailure(ModelFailure failure, int callsMade, Instant now, DoubleSupplier random) {
        if (!failure.retryable()) {
            return new Decision.GiveUp("not retryable");
        }
        if (callsMade >= maxCalls) {
            return new Decision.GiveUp("all " + maxCalls + " calls failed");
        }
        Duration wait = backoff.delay(callsMade, random);
        if (now.plus(wait).plus(MIN_CALL_TIME).isAfter(deadline)) {
            return new Decision.GiveUp("time budget spent after " + callsMade + " call(s)");
        }
        return new Decision.RetryAfter(wait);
    }

    /** Retry after a wait, or give up on this delivery. */
    public sealed interface Decision {
        record RetryAfter(Duration delay) implements Decision {
        }

        record GiveUp(String why) implements Decision {
        }
    }
}
