package io.gpupipe.worker.consumption;

import io.gpupipe.model.JobStatus;
import io.gpupipe.model.job.JobState;
import java.time.Duration;
import java.time.Instant;

/**
 * Whether a delivered copy of a job is a duplicate of a run another task holds now, to be deleted without inference.
 * It is when the job's marker reads {@code running}, written by another task less than {@link #freshFor()} ago, and
 * this is the copy's first delivery. Then the other task's own message exists and is not this one (its delivery
 * counted one already): that task writes the result or releases its message, and if it dies its message comes back
 * after the visibility timeout and takes over. A copy delivered again (perhaps the other task's own message, released
 * or lapsed) is never deleted this way, and nor is any copy once the marker is stale: the task that wrote it died.
 *
 * @param freshFor how long after its write a {@code running} marker stands for a live run: the longest the writer's
 *                 model calls can last, plus the visibility timeout after which a dead task's message is back
 */
public record RunningElsewhere(Duration freshFor) {

    /** The bound for a task making up to {@code maxCalls} model calls of {@code modelTimeout} each. */
    public static RunningElsewhere of(Duration modelTimeout, int maxCalls, Duration visibilityTimeout) {
        return new RunningElsewhere(modelTimeout.multipliedBy(Math.max(1, maxCalls)).plus(visibilityTimeout));
    }

    /** True when the copy {@code ourTask} received ({@code receiveCount} deliveries so far) is a duplicate. */
    public boolean isDuplicate(JobState marker, String ourTask, int receiveCount, Instant now) {
        return marker.status() == JobStatus.RUNNING
                && marker.taskArn() != null && !marker.taskArn().equals(ourTask)
                && receiveCount <= 1
                && marker.updatedAt() != null && now.isBefore(marker.updatedAt().plus(freshFor));
    }
}
