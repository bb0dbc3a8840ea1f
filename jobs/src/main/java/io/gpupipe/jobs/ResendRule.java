package io.gpupipe.jobs;

import io.gpupipe.model.job.JobState;
import java.time.Duration;
import java.time.Instant;

/**
 * When a resubmission of a job still {@code queued} with no result sends it again: only when its message may have
 * been lost. A marker no resubmission has re-sent may belong to a submission that died between marker and send (or
 * whose send and take-back both failed), so a resubmission sends a copy, and only then records it in the marker
 * ({@code resentAt}). For {@link #INTERVAL} after that, a copy is known to be on the queue (or taken by a worker,
 * which moves the marker on) and resubmissions send nothing; after it, one more copy may go. So resubmissions one
 * after another add at most one copy per interval, however often they come; resubmissions that read the marker at
 * the same moment may each send one before the first records its send.
 */
public final class ResendRule {
    /**
     * How long after a re-send no resubmission sends the job again: the longest default visibility timeout of the
     * tiers (large, 900 s), within which a copy a worker took and died with before marking the job running is back
     * on the queue; a re-send inside it could only add a copy.
     */
    public static final Duration INTERVAL = Duration.ofMinutes(15);

    private ResendRule() {
    }

    /** True when a resubmission at {@code now} should send the job of this queued marker again. */
    public static boolean mayHaveBeenLost(JobState queued, Instant now) {
        return queued.resentAt() == null || !now.isBefore(queued.resentAt().plus(INTERVAL));
    }
}
