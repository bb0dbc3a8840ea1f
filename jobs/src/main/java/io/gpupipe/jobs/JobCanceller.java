package io.gpupipe.jobs;

import io.gpupipe.jobs.port.JobStore.StoredMarker;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.port.OwnedJobStore;
import io.gpupipe.jobs.port.StoreRetries;
import io.gpupipe.jobs.quota.JobQuota;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.JobView;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import java.time.Clock;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The one cancel rule, for {@code DELETE /v1/jobs/{id}} and for each line of a cancelled batch: only a job that no
 * worker has started is cancelled, by rewriting its {@code queued} marker {@code cancelled} conditionally on the
 * version read (so it never overwrites a worker's {@code running}); the worker then drops its message. A line of a
 * batch is cancelled only with its batch ({@link Scope#BATCH_MEMBER}), so its batch's counts stay whole.
 */
public final class JobCanceller {
    private static final Logger LOG = Logger.getLogger(JobCanceller.class);

    /** Who asks: a client for one job, or a batch's cancel for its lines. */
    public enum Scope {
        SINGLE_JOB,
        BATCH_MEMBER
    }

    private final JobStore store;
    private final Clock clock;
    private final JobQuota quota;

    /** {@code quota}: a client's cancelled job stops counting against its limit. */
    public JobCanceller(JobStore store, Clock clock, JobQuota quota) {
        this.store = store;
        this.clock = clock;
        this.quota = quota;
    }

    /**
     * A client cancels its own job {@code key} (an owner's key): another owner's job reads as unknown; a cancelled
     * job no longer counts against the owner's limit.
     */
    public CancelOutcome cancel(JobKey key) {
        var owner = key.owner().orElseThrow(() -> new IllegalArgumentException("a client's cancel names its owner"));
        CancelOutcome outcome = cancel(new OwnedJobStore(store, owner), key, Scope.SINGLE_JOB);
        if (outcome instanceof CancelOutcome.Cancelled || outcome instanceof CancelOutcome.AlreadyCancelled) {
            quota.released(owner, key.storedId());
        }
        return outcome;
    }

    /** Cancels the job {@code id} (a valid, normalised request id, of no client id) if it has not started. */
    public CancelOutcome cancel(String id, Scope scope) {
        return cancel(store, JobKey.stored(id, null), scope);
    }

    /** Cancels the job {@code key} names if it has not started; every answer shows the id its client knows. */
    private CancelOutcome cancel(JobStore store, JobKey key, Scope scope) {
        String id = key.storedId();
        Retry retry = StoreRetries.CONFIGURED.changedMarkers().start();
        do {
            Optional<StoredMarker> marker = store.readMarker(id);
            Optional<JobResult> result = marker.isPresent() && marker.get().state().status() != JobStatus.QUEUED
                    ? Optional.empty() : store.readResult(id);
            Optional<JobView> view = JobView.of(key, marker.map(StoredMarker::state), result);
            if (view.isEmpty()) {
                return new CancelOutcome.NotFound(key.visibleId());
            }
            if (view.get().status() == JobStatus.CANCELLED) {
                return new CancelOutcome.AlreadyCancelled(view.get());
            }
            if (result.isPresent() || !marker.get().state().isCancellable()) {
                return new CancelOutcome.NotCancellable(view.get());
            }
            if (scope == Scope.SINGLE_JOB && marker.get().state().batch() != null) {
                return new CancelOutcome.PartOfBatch(view.get(), marker.get().state().batch().batchId());
            }
            JobState cancelled = marker.get().state().cancelled(clock.instant());
            if (store.replaceMarker(cancelled, marker.get().eTag())) {
                return new CancelOutcome.Cancelled(JobView.of(key, Optional.of(cancelled), Optional.empty())
                        .orElseThrow());
            }
            LOG.infof("marker of %s changed while cancelling (attempt %d); re-reading", id, retry.attempt());
        } while (retry.another());
        return JobView.of(key, store.readMarker(id).map(StoredMarker::state), store.readResult(id))
                .<CancelOutcome>map(CancelOutcome.NotCancellable::new)
                .orElseGet(() -> new CancelOutcome.NotFound(key.visibleId()));
    }
}
