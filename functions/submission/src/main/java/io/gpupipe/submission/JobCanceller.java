package io.gpupipe.submission;

import io.gpupipe.adapters.JobStore;
import io.gpupipe.adapters.JobStore.StoredMarker;
import io.gpupipe.adapters.StoreRetries;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.JobView;
import io.gpupipe.model.retry.Retry;
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

    public JobCanceller(JobStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Cancels the job {@code id} (a valid, normalised request id) if it has not started. */
    public CancelOutcome cancel(String id, Scope scope) {
        Retry retry = StoreRetries.CONFIGURED.changedMarkers().start();
        do {
            Optional<StoredMarker> marker = store.readMarker(id);
            Optional<JobResult> result = marker.isPresent() && marker.get().state().status() != JobStatus.QUEUED
                    ? Optional.empty() : store.readResult(id);
            Optional<JobView> view = JobView.of(id, marker.map(StoredMarker::state), result);
            if (view.isEmpty()) {
                return new CancelOutcome.NotFound(id);
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
                return new CancelOutcome.Cancelled(JobView.of(id, Optional.of(cancelled), Optional.empty())
                        .orElseThrow());
            }
            LOG.infof("marker of %s changed while cancelling (attempt %d); re-reading", id, retry.attempt());
        } while (retry.another());
        return store.view(id).<CancelOutcome>map(CancelOutcome.NotCancellable::new)
                .orElseGet(() -> new CancelOutcome.NotFound(id));
    }
}
