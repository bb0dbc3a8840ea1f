package io.gpupipe.jobs;

import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.quota.JobQuota;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The submit and cancel rules over one store and one queue, assembled once for an edge (the router, the batch
 * function): the edges never build a submitter per request nor wire its collaborators by hand.
 */
public record JobLifecycle(JobSubmitter submitter, JobCanceller canceller) {

    /** Every job is sent and none counted (the batch function: a batch's lines are limited by their batch). */
    public static JobLifecycle of(JobStore store, JobQueue queue, Clock clock) {
        return of(store, queue, clock, requestId -> { }, CacheShortcut.NONE, JobQuota.UNLIMITED);
    }

    /**
     * {@code afterMarkerWritten} runs between a marker write and its send (fault injection); {@code shortcut} may
     * answer a single job from the result cache; {@code quota} counts a caller's single jobs until they end.
     */
    public static JobLifecycle of(JobStore store, JobQueue queue, Clock clock, Consumer<String> afterMarkerWritten,
                                  CacheShortcut shortcut, JobQuota quota) {
        return new JobLifecycle(new JobSubmitter(store, queue, clock, afterMarkerWritten, shortcut, quota),
                new JobCanceller(store, clock, quota));
    }
}
