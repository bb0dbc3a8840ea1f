package io.gpupipe.worker.consumption;

import java.time.Duration;
import java.time.Instant;

/**
 * Time a job spent queued before a worker started it. Jobs from the router carry {@code submittedAt}; jobs sent
 * straight to the queue do not, and then SQS's {@code SentTimestamp} stands in (for the TTL check too).
 */
public final class QueueWait {
    private QueueWait() {
    }

    /** The job's submission time: its own {@code submittedAt} when present, else the SQS send time. */
    public static Instant submittedAt(Instant fromJob, Instant sentTimestamp) {
        return fromJob != null ? fromJob : sentTimestamp;
    }

    /** Milliseconds from submission to {@code startedAt}; never negative (clocks of different hosts may skew). */
    public static long millis(Instant submittedAt, Instant startedAt) {
        if (submittedAt == null || startedAt == null) {
            return 0;
        }
        long millis = Duration.between(submittedAt, startedAt).toMillis();
        return Math.max(0, millis);
    }
}
