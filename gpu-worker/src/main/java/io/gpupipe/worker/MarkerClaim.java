package io.gpupipe.worker;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.retry.RetryPolicy;
import io.gpupipe.worker.consumption.RunningElsewhere;
import java.time.Clock;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Claims a job for this worker by writing its {@code running} marker over exactly the version read, so that it can
 * never overwrite a cancel that landed after the read. When another writer got there first, re-reads:
 * {@code cancelled} means the client won; {@code running} (another delivery of this job, or our own write that the
 * SDK retried) can no longer be cancelled, so the job goes on; anything else is retried over the new version. A first
 * delivery that finds another task's fresh {@code running} marker, before or after its write, is a duplicate of that
 * run ({@link RunningElsewhere}) and never reaches the model.
 * Inference starts only after this, since a model call cannot be taken back. An S3 error propagates and the message
 * returns to the queue.
 */
final class MarkerClaim {
    private static final Logger LOG = Logger.getLogger(MarkerClaim.class);

    /** How the claim ended. */
    enum Outcome {
        RUNNING,
        CANCELLED,
        CONTENDED,
        DUPLICATE
    }

    private final WorkerJobStore store;
    private final Tier tier;
    private final String taskArn;
    private final RetryPolicy markerChanges;
    private final RunningElsewhere runningElsewhere;
    private final Clock clock;

    MarkerClaim(WorkerJobStore store, Tier tier, String taskArn, RetryPolicy markerChanges,
                RunningElsewhere runningElsewhere, Clock clock) {
        this.store = store;
        this.tier = tier;
        this.taskArn = taskArn;
        this.markerChanges = markerChanges;
        this.runningElsewhere = runningElsewhere;
        this.clock = clock;
    }

    /**
     * Marks {@code job} running over {@code read}; {@code startedAt} dates the queued marker written when none was,
     * {@code receiveCount} is the delivery's (SQS ApproximateReceiveCount).
     */
    Outcome claim(InferenceJob job, MarkerSnapshot read, Instant startedAt, int receiveCount) {
        MarkerSnapshot expected = read;
        var retry = markerChanges.start();
        do {
            if (isDuplicate(expected, receiveCount)) {
                LOG.infof("%s is running in task %s: this first delivery is a duplicate", job.requestId(),
                        expected.state().orElseThrow().taskArn());
                return Outcome.DUPLICATE;
            }
            JobState running = expected.state()
                    .orElseGet(() -> JobState.queued(job, tier, startedAt))
                    .running(taskArn, clock.instant());
            if (store.replaceMarker(running, expected)) {
                return Outcome.RUNNING;
            }
            expected = store.markerSnapshot(job.requestId());
            LOG.infof("marker of %s changed before it could be marked running (attempt %d): now %s", job.requestId(),
                    retry.attempt(), expected.state().map(m -> m.status().wireName()).orElse("absent"));
            if (isCancelled(expected)) {
                return Outcome.CANCELLED;
            }
            if (expected.state().map(m -> m.status() == JobStatus.RUNNING).orElse(false)) {
                return isDuplicate(expected, receiveCount) ? Outcome.DUPLICATE : Outcome.RUNNING;
            }
        } while (retry.another());
        return Outcome.CONTENDED;
    }

    private boolean isDuplicate(MarkerSnapshot marker, int receiveCount) {
        return marker.state().map(m -> runningElsewhere.isDuplicate(m, taskArn, receiveCount, clock.instant()))
                .orElse(false);
    }

    static boolean isCancelled(MarkerSnapshot marker) {
        return marker.state().map(m -> m.status() == JobStatus.CANCELLED).orElse(false);
    }
}
