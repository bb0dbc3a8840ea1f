package io.gpupipe.router;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobRequestParser;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.JobView;
import io.gpupipe.model.Task;
import io.gpupipe.model.observability.LogFields;
import io.gpupipe.model.routing.RoutingDecision;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.router.StatusOutcome.ResultLinks;
import io.gpupipe.router.aws.JobQueue;
import io.gpupipe.router.aws.JobStore;
import io.gpupipe.router.aws.JobStore.StoredMarker;
import io.gpupipe.router.exception.QueueRejectedMessageException;
import io.gpupipe.router.exception.QueueUnavailableException;
import io.gpupipe.router.exception.StoreUnavailableException;
import io.gpupipe.router.internal.FaultInjection;
import io.gpupipe.router.internal.ResultCache;
import io.gpupipe.router.internal.RoutingMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * The router's use cases: submit (validate, route, write the queued marker create-only, answer from the result cache
 * or enqueue), status (marker + result, presigned links) and cancel (conditional rewrite of a queued marker).
 */
public final class JobService {
    static final int CANCEL_ATTEMPTS = 3;
    static final int SUBMIT_ATTEMPTS = 3;
    private static final Logger LOG = Logger.getLogger(JobService.class);

    private final JobRequestParser parser;
    private final RoutingPolicy policy;
    private final JobStore store;
    private final JobQueue queue;
    private final RoutingMetrics metrics;
    private final Clock clock;
    private final Duration presignTtl;
    private final FaultInjection faults;
    private final ResultCache cache;

    /** A router without the result cache. */
    public JobService(JobRequestParser parser, RoutingPolicy policy, JobStore store, JobQueue queue,
                      RoutingMetrics metrics, Clock clock, Duration presignTtl, FaultInjection faults) {
        this(parser, policy, store, queue, metrics, clock, presignTtl, faults, ResultCache.disabled());
    }

    public JobService(JobRequestParser parser, RoutingPolicy policy, JobStore store, JobQueue queue,
                      RoutingMetrics metrics, Clock clock, Duration presignTtl, FaultInjection faults,
                      ResultCache cache) {
        this.cache = cache;
        this.faults = faults;
        this.parser = parser;
        this.policy = policy;
        this.store = store;
        this.queue = queue;
        this.metrics = metrics;
        this.clock = clock;
        this.presignTtl = presignTtl;
    }

    /**
     * Validates, routes, writes the queued marker create-only and answers from the result cache or enqueues. Every
     * 2xx answer is backed by a message this call sent, a result this call stored (a cache hit), or a marker a worker
     * or the client has moved on from, so an accepted job is never left reading {@code queued} with no queue holding
     * it: see README, "Job lifecycle".
     */
    public SubmitOutcome submit(String body) {
        JobRequestParser.Outcome parsed = parser.parse(body, JobRequestParser.Source.API);
        if (parsed instanceof JobRequestParser.Outcome.Invalid invalid) {
            return new SubmitOutcome.Rejected(invalid.errors(), invalid.requestId());
        }
        Instant now = clock.instant();
        InferenceJob job = ((JobRequestParser.Outcome.Valid) parsed).job().withSubmittedAt(now);
        RoutingDecision decision = policy.route(job);
        // every log line of this submission names the job (JSON logs: mdc.requestId, mdc.tier)
        MDC.put(LogFields.REQUEST_ID, job.requestId());
        MDC.put(LogFields.TIER, decision.tier().wireName());
        try {
            return submitRouted(job, decision, now);
        } finally {
            MDC.remove(LogFields.REQUEST_ID);
            MDC.remove(LogFields.TIER);
        }
    }

    private SubmitOutcome submitRouted(InferenceJob job, RoutingDecision decision, Instant now) {
        JobState marker = JobState.queued(job, decision.tier(), now);
        for (int attempt = 0; attempt < SUBMIT_ATTEMPTS; attempt++) {
            Optional<String> created = store.createMarker(marker);
            if (created.isPresent()) {
                return enqueueNew(job, decision, created.get());
            }
            Optional<StoredMarker> existing = store.readMarker(job.requestId());
            if (existing.isEmpty()) {
                LOG.infof("marker of %s was taken back while resubmitting (attempt %d); creating it", job.requestId(),
                        attempt + 1);
                continue;
            }
            if (existing.get().state().equals(marker)) {
                // an SDK retry of our own create met the object its first attempt wrote (same submittedAt to the ns)
                return enqueueNew(job, decision, existing.get().eTag());
            }
            Optional<SubmitOutcome> resubmitted = resubmit(job, existing.get());
            if (resubmitted.isPresent()) {
                return resubmitted.get();
            }
        }
        throw new StoreUnavailableException("the marker of " + job.requestId() + " kept changing while submitting ("
                + SUBMIT_ATTEMPTS + " attempts)", null);
    }

    private SubmitOutcome enqueueNew(InferenceJob job, RoutingDecision decision, String markerETag) {
        // the marker claims the requestId first, so a hit never answers for a requestId another request holds
        Optional<JobResult> cached = cache.answer(job, decision.tier());
        if (cached.isPresent()) {
            JobView view = JobView.of(job.requestId(), Optional.of(JobState.queued(job, decision.tier(),
                    job.submittedAt())), cached).orElseThrow();
            return new SubmitOutcome.Cached(view, links(view));
        }
        faults.afterMarkerWritten(job.requestId());
        try {
            queue.send(job, decision.tier());
        } catch (QueueUnavailableException | StoreUnavailableException | QueueRejectedMessageException e) {
            LOG.errorf("enqueue failed, taking back the marker of %s: %s", job.requestId(), e.getMessage());
            takeBackMarker(job.requestId(), markerETag);
            if (e instanceof QueueRejectedMessageException rejected) {
                throw rejected;
            }
            return new SubmitOutcome.Unavailable(job.requestId(), "the " + decision.tier().wireName()
                    + " queue is unavailable; the job was not accepted, retry later");
        }
        metrics.routed(job, decision);
        return new SubmitOutcome.Accepted(job, decision);
    }

    /**
     * A resubmitted requestId. A marker still {@code queued} with no result may belong to a submission that died
     * between marker and send, or whose send failed while its take-back did too, or that is still in flight and may
     * yet fail: the job goes on its queue again (the worker de-duplicates: create-only results, conditional running
     * marker). The rewrite conditional on the ETag read comes first: it makes the original submitter's conditional
     * take-back fail, so the 200 answered here stays true. Empty when the marker changed meanwhile (re-evaluate).
     */
    private Optional<SubmitOutcome> resubmit(InferenceJob job, StoredMarker stored) {
        JobState state = stored.state();
        Optional<JobResult> result = store.readResult(job.requestId());
        if (state.status() != JobStatus.QUEUED || result.isPresent() || !state.describes(job)) {
            // moved on, finished, or another request reusing this requestId: nothing of it may reach a queue
            return Optional.of(duplicate(job.requestId(), Optional.of(state), result));
        }
        JobState requeued = state.requeued(clock.instant());
        if (!store.replaceMarker(requeued, stored.eTag())) {
            LOG.infof("marker of %s changed while resubmitting; re-reading", job.requestId());
            return Optional.empty();
        }
        faults.afterMarkerWritten(job.requestId());
        InferenceJob original = job.withSubmittedAt(state.submittedAt());
        try {
            queue.send(original, state.tier());
        } catch (QueueUnavailableException | StoreUnavailableException e) {
            // the marker is not ours to take back: its creator may have enqueued the job; the client retries
            LOG.errorf("re-enqueue of resubmitted %s failed: %s", job.requestId(), e.getMessage());
            return Optional.of(new SubmitOutcome.Unavailable(job.requestId(), "the " + state.tier().wireName()
                    + " queue is unavailable; retry later"));
        }
        LOG.infof("resubmitted %s was still queued with no result: enqueued again to %s", job.requestId(),
                state.tier().wireName());
        return Optional.of(duplicate(job.requestId(), Optional.of(requeued), Optional.empty()));
    }

    private static SubmitOutcome duplicate(String id, Optional<JobState> marker, Optional<JobResult> result) {
        return new SubmitOutcome.Duplicate(JobView.of(id, marker, result).orElseThrow());
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

    /** Deletes the marker this call wrote, and only that version: a resubmission may have rewritten it since. */
    private void takeBackMarker(String requestId, String eTag) {
        try {
            if (!store.deleteMarker(requestId, eTag)) {
                LOG.infof("marker of unqueued job %s was rewritten by a resubmission; left in place", requestId);
            }
        } catch (StoreUnavailableException e) {
            LOG.errorf("could not delete the marker of unqueued job %s; it reads queued until the client's retry"
                    + " (answered 503) enqueues it: %s", requestId, e.getMessage());
        }
    }
}
