package io.gpupipe.model.retry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.DoubleSupplier;

/**
 * One run of a loop under a {@link RetryPolicy}: the loop makes an attempt, and after a failure asks
 * {@link #another()}, which pauses and answers whether to go on. Not thread-safe: one loop owns it.
 *
 * <pre>{@code
 * Retry retry = policy.start();
 * do {
 *     if (tryOnce()) return;
 * } while (retry.another());
 * giveUp(retry.attempt());
 * }</pre>
 */
public final class Retry {
    private final RetryPolicy policy;
    private final RetryPolicy.Sleeper sleeper;
    private final Clock clock;
    private final DoubleSupplier random;
    private Instant deadline;
    private int attempt = 1;
    private boolean interrupted;

    Retry(RetryPolicy policy, RetryPolicy.Sleeper sleeper, Clock clock, DoubleSupplier random) {
        this.policy = policy;
        this.sleeper = sleeper;
        this.clock = clock;
        this.random = random;
        this.deadline = deadlineFrom(clock.instant());
    }

    /** The number of the attempt in progress, or of the last one once the run gave up; from 1. */
    public int attempt() {
        return attempt;
    }

    /** The policy's attempt limit, for messages ("attempt 2 of 4"). */
    public int maxAttempts() {
        return policy.maxAttempts();
    }

    /** True when the run gave up because its pause was interrupted (the thread's interrupt flag is set again). */
    public boolean interrupted() {
        return interrupted;
    }

    /** The pause {@link #another()} would take now, before jitter is drawn: for a log line before it. */
    public Duration nextCap() {
        return policy.capAfter(attempt);
    }

    /**
     * After a failed attempt: false when the policy's attempts (or its time) are spent, or the thread is interrupted;
     * otherwise pauses as the policy says and answers true, the next attempt being the caller's to make.
     */
    public boolean another() {
        if (Thread.currentThread().isInterrupted()) {
            interrupted = true;
            return false;
        }
        if (!policy.allowsAnotherAfter(attempt)) {
            return false;
        }
        Duration pause = policy.delayAfter(attempt, random);
        if (deadline != null && clock.instant().plus(pause).isAfter(deadline)) {
            return false;
        }
        if (!pause.isZero()) {
            try {
                sleeper.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                interrupted = true;
                return false;
            }
        }
        attempt++;
        return true;
    }

    /** A long-running loop's step succeeded: the next failure starts again from the first pause and attempt. */
    public void reset() {
        attempt = 1;
        deadline = deadlineFrom(clock.instant());
    }

    private Instant deadlineFrom(Instant start) {
        return policy.within() == null ? null : start.plus(policy.within());
    }
}
