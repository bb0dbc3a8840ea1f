package io.gpupipe.model.retry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * How every loop that tries a step again does it: at most {@code maxAttempts} attempts (the first included;
 * {@link #UNLIMITED} for a loop that runs until it is stopped), and between two of them a pause that starts at
 * {@code firstDelay}, doubles after each failure and stops growing at {@code maxDelay}, drawn as {@link Jitter} says.
 * A policy with {@code within} set also gives up when the next attempt could not start before that much time has
 * passed since the first. {@link #start} begins one run of the loop ({@link Retry}).
 */
public record RetryPolicy(int maxAttempts, Duration firstDelay, Duration maxDelay, Jitter jitter, Duration within) {
    /** For loops that retry until stopped (a poller, a start-up step). */
    public static final int UNLIMITED = Integer.MAX_VALUE;
    private static final int MAX_DOUBLINGS = 30;

    /** How a pause is drawn below its cap. */
    public enum Jitter {
        /** Exactly the cap: one caller, no herd to spread. */
        NONE,
        /** Uniform in [cap/2, cap]: half of the wait is kept, the rest spreads callers that failed together. */
        EQUAL,
        /** Uniform in [0, cap]: contenders for one object spread out most. */
        FULL
    }

    public RetryPolicy {
        Objects.requireNonNull(firstDelay, "firstDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(jitter, "jitter");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
        if (firstDelay.isNegative() || maxDelay.compareTo(firstDelay) < 0) {
            throw new IllegalArgumentException("need 0 <= firstDelay <= maxDelay, got " + firstDelay + " and "
                    + maxDelay);
        }
        if (within != null && (within.isNegative() || within.isZero())) {
            throw new IllegalArgumentException("within must be positive, got " + within);
        }
    }

    /** Exponential pauses without jitter, no time limit. */
    public static RetryPolicy exponential(int maxAttempts, Duration firstDelay, Duration maxDelay) {
        return new RetryPolicy(maxAttempts, firstDelay, maxDelay, Jitter.NONE, null);
    }

    /** No pause between attempts: for a re-read of something another writer changed (the re-read is the wait). */
    public static RetryPolicy immediate(int maxAttempts) {
        return exponential(maxAttempts, Duration.ZERO, Duration.ZERO);
    }

    /** This policy with its pauses drawn as {@code jitter} says. */
    public RetryPolicy withJitter(Jitter jitter) {
        return new RetryPolicy(maxAttempts, firstDelay, maxDelay, jitter, within);
    }

    /** This policy, also giving up once the next attempt could not start within {@code limit} of the first. */
    public RetryPolicy within(Duration limit) {
        return new RetryPolicy(maxAttempts, firstDelay, maxDelay, jitter, limit);
    }

    /** True when another attempt may follow {@code attemptsMade} failed ones (time aside). */
    public boolean allowsAnotherAfter(int attemptsMade) {
        return attemptsMade < maxAttempts;
    }

    /** The largest pause after {@code attemptsMade} (from 1) failed attempts: firstDelay × 2^(attemptsMade − 1). */
    public Duration capAfter(int attemptsMade) {
        if (attemptsMade < 1) {
            throw new IllegalArgumentException("attemptsMade starts at 1, got " + attemptsMade);
        }
        Duration cap = firstDelay;
        for (int i = 1; i < Math.min(attemptsMade, MAX_DOUBLINGS) && cap.compareTo(maxDelay) < 0; i++) {
            cap = cap.multipliedBy(2);
        }
        return cap.compareTo(maxDelay) > 0 ? maxDelay : cap;
    }

    /** The pause after {@code attemptsMade} failed attempts; {@code random} answers values in [0, 1). */
    public Duration delayAfter(int attemptsMade, DoubleSupplier random) {
        long cap = capAfter(attemptsMade).toMillis();
        double r = Math.min(Math.max(random.getAsDouble(), 0.0), 1.0);
        return Duration.ofMillis(switch (jitter) {
            case NONE -> cap;
            case EQUAL -> cap / 2 + Math.round((cap - cap / 2) * r);
            case FULL -> Math.round(cap * r);
        });
    }

    /** One run of a loop under this policy, pausing on the current thread. */
    public Retry start() {
        return start(Sleeper.THREAD, Clock.systemUTC(), () -> ThreadLocalRandom.current().nextDouble());
    }

    /** One run of a loop under this policy; tests pass a sleeper that records instead of waiting. */
    public Retry start(Sleeper sleeper, Clock clock, DoubleSupplier random) {
        return new Retry(this, sleeper, clock, random);
    }

    /** Pauses the current thread; a test's records the pause and returns. */
    @FunctionalInterface
    public interface Sleeper {
        Sleeper THREAD = pause -> Thread.sleep(pause.toMillis());

        void sleep(Duration pause) throws InterruptedException;
    }

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
    public static final class Retry {
        private final RetryPolicy policy;
        private final Sleeper sleeper;
        private final Clock clock;
        private final DoubleSupplier random;
        private Instant deadline;
        private int attempt = 1;
        private boolean interrupted;

        Retry(RetryPolicy policy, Sleeper sleeper, Clock clock, DoubleSupplier random) {
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
}
