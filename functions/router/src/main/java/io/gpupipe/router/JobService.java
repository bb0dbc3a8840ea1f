package io.gpupipe.router;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobRequestParser;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.JobView;
import io.gpupipe.model.Task;
import io.gpupipe.model.routing.RoutingDecision;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.router.StatusOutcome.ResultLinks;
import io.gpupipe.router.aws.JobQueue;
import io.gpupipe.router.aws.JobStore;
import io.gpupipe.router.aws.JobStore.StoredMarker;
import io.gpupipe.router.exception.QueueUnavailableException;
import io.gpupipe.router.exception.StoreUnavailableException;
import io.gpupipe.router.internal.RoutingMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The router's use cases: submit (validate, route, write the queued marker create-only, enqueue), status (marker +
 * result, presigned links) and cancel (conditional rewrite of a queued marker).
 */
public final class JobService {
    static final int CANCEL_ATTEMPTS = 3;
    private static final Logger LOG = Logger.getLogger(JobService.class);

    private final JobRequestParser parser;
    private final RoutingPolicy policy;
    private final JobStore store;
    private final JobQueue queue;
    private final RoutingMetrics metrics;
    private final Clock clock;
    private final Duration presignTtl;

    public JobService(JobRequestParser parser, RoutingPolicy policy, JobStore store, JobQueue queue,
                      RoutingMetrics metrics, Clock clock, Duration presignTtl) {
        this.parser = parser;
        this.policy = policy;
        this.store = store;
        this.queue = queue;
        this.metrics = metrics;
        this.clock = clock;
        this.presignTtl = presignTtl;
    }

    public SubmitOutcome submit(String body) {
        JobRequestParser.Outcome parsed = parser.parse(body, JobRequestParser.Source.API);
        if (parsed instanceof JobRequestParser.Outcome.Invalid invalid) {
            return new SubmitOutcome.Rejected(invalid.errors(), invalid.requestId());
        }
        Instant now = clock.instant();
        InferenceJob job = ((JobRequestParser.Outcome.Valid) parsed).job().withSubmittedAt(now);
        RoutingDecision decision = policy.route(job);
        JobState marker = JobState.queued(job, decision.tier(), now);
        Optional<StoredMarker> existing = createOrRead(marker);
        if (existing.isPresent() && !existing.get().state().equals(marker)) {
            JobView current = JobView.of(job.requestId(), existing.map(StoredMarker::state),
                    store.readResult(job.requestId())).orElseThrow();
            return new SubmitOutcome.Duplicate(current);
        }
        try {
            queue.send(job, decision.tier());
        } catch (QueueUnavailableException e) {
            LOG.errorf("enqueue failed, taking back the marker of %s: %s", job.requestId(), e.getMessage());
            takeBackMarker(job.requestId());
            return new SubmitOutcome.Unavailable(job.requestId(), "the " + decision.tier().wireName()
                    + " queue is unavailable; the job was not accepted, retry later");
        }
        metrics.routed(job, decision);
        return new SubmitOutcome.Accepted(job, decision);
    }

    public StatusOutcome status(String rawId) {
        if (!JobRequestParser.isValidRequestId(rawId)) {
            return new StatusOutcome.InvalidId(rawId);
        }
        String id = JobRequestParser.normalizeRequestId(rawId);
        return view(id).<StatusOutcome>map(v -> new StatusOutcome.Found(v, links(v)))
                .orElseGet(() -> new StatusOutcome.NotFound(id));
    }

    public CancelOutcome cancel(String rawId) {
        if (!JobRequestParser.isValidRequestId(rawId)) {
            return new CancelOutcome.InvalidId(rawId);
        }
        String id = JobRequestParser.normalizeRequestId(rawId);
        for (int attempt = 0; attempt < CANCEL_ATTEMPTS; attempt++) {
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
            JobState cancelled = marker.get().state().cancelled(clock.instant());
            if (store.replaceMarker(cancelled, marker.get().eTag())) {
                return new CancelOutcome.Cancelled(JobView.of(id, Optional.of(cancelled), Optional.empty())
                        .orElseThrow());
            }
            LOG.infof("marker of %s changed while cancelling (attempt %d); re-reading", id, attempt + 1);
        }
        return view(id).<CancelOutcome>map(CancelOutcome.NotCancellable::new)
                .orElseGet(() -> new CancelOutcome.NotFound(id));
    }

    /**
     * Creates the marker; empty when this call created it. Otherwise the marker found: when it equals ours (same
     * submittedAt to the nanosecond) an SDK retry of our own create met the object its first attempt had written.
     */
    private Optional<StoredMarker> createOrRead(JobState marker) {
        if (store.createMarker(marker)) {
            return Optional.empty();
        }
        Optional<StoredMarker> existing = store.readMarker(marker.requestId());
        if (existing.isEmpty()) {
            throw new StoreUnavailableException("the marker of " + marker.requestId()
                    + " exists but cannot be read (concurrent submission being rolled back?)", null);
        }
        return existing;
    }

    private Optional<JobView> view(String id) {
        return JobView.of(id, store.readMarker(id).map(StoredMarker::state), store.readResult(id));
    }

    private ResultLinks links(JobView view) {
        JobResult result = view.result();
        if (result == null) {
            return ResultLinks.NONE;
        }
        String id = view.requestId();
        boolean audio = result.status() == JobStatus.SUCCEEDED && result.task() == Task.SPEECH;
        String audioKey = result.result() != null && result.result().audioKey() != null
                ? result.result().audioKey() : JobLayout.audioKey(id);
        return new ResultLinks(store.presignGet(JobLayout.resultKey(id), presignTtl),
                audio ? store.presignGet(audioKey, presignTtl) : null, clock.instant().plus(presignTtl));
    }

    private void takeBackMarker(String requestId) {
        try {
            store.deleteMarker(requestId);
        } catch (StoreUnavailableException e) {
            LOG.errorf("could not delete the marker of unqueued job %s; it will read queued: %s", requestId,
                    e.getMessage());
        }
    }
}
