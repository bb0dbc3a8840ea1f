package io.gpupipe.router;

import io.gpupipe.adapters.JobQueue;
import io.gpupipe.adapters.JobStore;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobRequestParser;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.JobView;
import io.gpupipe.model.Task;
import io.gpupipe.model.observability.LogFields;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.routing.RoutingDecision;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.router.StatusOutcome.ResultLinks;
import io.gpupipe.router.internal.FaultInjection;
import io.gpupipe.router.internal.JobQuota;
import io.gpupipe.router.internal.ResultCache;
import io.gpupipe.router.internal.RoutingMetrics;
import io.gpupipe.submission.CancelOutcome;
import io.gpupipe.submission.JobCanceller;
import io.gpupipe.submission.JobSubmitter;
import io.gpupipe.submission.SubmitOutcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.jboss.logging.MDC;

/**
 * The router's use cases, each for one caller ({@link Owner}): submit (validate, route, then the submission rule of
 * {@link JobSubmitter}, which answers from the result cache once the marker is claimed, or counts the job against
 * the caller's limit and enqueues), status (marker + result, presigned links) and cancel (the rule of
 * {@link JobCanceller}; a batch's lines only with their batch). A caller's requestId names the job stored under
 * {@link JobIds#stored}, read through {@link JobStore#ownedBy}: another caller's job is never found, and every answer
 * shows the id the caller chose.
 */
public final class JobService {
    private final JobRequestParser parser;
    private final RoutingPolicy policy;
    private final JobStore store;
    private final JobQueue queue;
    private final RoutingMetrics metrics;
    private final Clock clock;
    private final Duration presignTtl;
    private final FaultInjection faults;
    private final ResultCache cache;
    private final JobQuota quota;

    /** A router without the result cache and without per-caller limits. */
    public JobService(JobRequestParser parser, RoutingPolicy policy, JobStore store, JobQueue queue,
                      RoutingMetrics metrics, Clock clock, Duration presignTtl, FaultInjection faults) {
        this(parser, policy, store, queue, metrics, clock, presignTtl, faults, ResultCache.disabled(),
                JobQuota.unlimited());
    }

    public JobService(JobRequestParser parser, RoutingPolicy policy, JobStore store, JobQueue queue,
                      RoutingMetrics metrics, Clock clock, Duration presignTtl, FaultInjection faults,
                      ResultCache cache, JobQuota quota) {
        this.parser = parser;
        this.policy = policy;
        this.store = store;
        this.queue = queue;
        this.metrics = metrics;
        this.clock = clock;
        this.presignTtl = presignTtl;
        this.faults = faults;
        this.cache = cache;
        this.quota = quota;
    }

    /**
     * Validates, routes and submits as {@code owner}. Every 2xx answer is backed by a message this call sent, a result
     * this call stored (a cache hit), or a marker a worker or the client has moved on from, so an accepted job is never
     * left reading {@code queued} with no queue holding it: see docs/architecture.md, "Job lifecycle".
     */
    public SubmitOutcome submit(String body, Owner owner) {
        JobRequestParser.Outcome parsed = parser.parse(body, JobRequestParser.Source.API);
        if (parsed instanceof JobRequestParser.Outcome.Invalid invalid) {
            return new SubmitOutcome.Rejected(invalid.errors(), invalid.requestId());
        }
        Instant now = clock.instant();
        InferenceJob job = ((JobRequestParser.Outcome.Valid) parsed).job().withSubmittedAt(now).submittedBy(owner);
        RoutingDecision decision = policy.route(job);
        // every log line of this submission names the job (JSON logs: mdc.requestId, mdc.tier)
        MDC.put(LogFields.REQUEST_ID, job.requestId());
        MDC.put(LogFields.TIER, decision.tier().wireName());
        try {
            SubmitOutcome outcome = new JobSubmitter(store.ownedBy(owner), queue, clock, faults::afterMarkerWritten,
                    cache::answer, quota).submit(job, decision);
            if (outcome instanceof SubmitOutcome.Accepted) {
                metrics.routed(job, decision);
            }
            return seenByClient(outcome, job.visibleRequestId());
        } finally {
            MDC.remove(LogFields.REQUEST_ID);
            MDC.remove(LogFields.TIER);
        }
    }

    public StatusOutcome status(String rawId, Owner owner) {
        if (!JobRequestParser.isValidRequestId(rawId)) {
            return new StatusOutcome.InvalidId(rawId);
        }
        String clientId = JobRequestParser.normalizeRequestId(rawId);
        String id = JobIds.stored(owner, clientId);
        return store.ownedBy(owner).view(id).<StatusOutcome>map(v -> new StatusOutcome.Found(v.seenAs(clientId),
                links(id, v))).orElseGet(() -> new StatusOutcome.NotFound(clientId));
    }

    /** Cancels the caller's job if it has not started; a cancelled job no longer counts against the caller's limit. */
    public CancelOutcome cancel(String rawId, Owner owner) {
        if (!JobRequestParser.isValidRequestId(rawId)) {
            return new CancelOutcome.InvalidId(rawId);
        }
        String clientId = JobRequestParser.normalizeRequestId(rawId);
        String id = JobIds.stored(owner, clientId);
        CancelOutcome outcome = new JobCanceller(store.ownedBy(owner), clock).cancel(id, JobCanceller.Scope.SINGLE_JOB);
        if (outcome instanceof CancelOutcome.Cancelled || outcome instanceof CancelOutcome.AlreadyCancelled) {
            quota.released(owner, id);
        }
        return seenByClient(outcome, clientId);
    }

    /** Presigned links to the result (and audio) of the job a client sees as {@code view}, for {@code owner}. */
    ResultLinks links(Owner owner, JobView view) {
        return links(JobIds.stored(owner, view.requestId()), view);
    }

    /**
     * Presigned links to the job's result (and audio, or vectors kept in their own object) and their S3 URIs, none
     * while it has no result. Every key is derived from the job's stored id, never read from the stored result: a
     * result naming some other object must not get it presigned.
     */
    private ResultLinks links(String id, JobView view) {
        JobResult result = view.result();
        if (result == null) {
            return ResultLinks.NONE;
        }
        boolean succeeded = result.status() == JobStatus.SUCCEEDED && result.result() != null;
        boolean audio = succeeded && result.task() == Task.SPEECH;
        boolean vectors = succeeded && result.task() == Task.EMBED && result.result().embeddingsKey() != null;
        String resultKey = JobLayout.resultKey(id);
        String audioKey = JobLayout.audioKey(id);
        String vectorsKey = JobLayout.embeddingsKey(id);
        return new ResultLinks(store.presignGet(resultKey, presignTtl),
                audio ? store.presignGet(audioKey, presignTtl) : null, store.location(resultKey),
                audio ? store.location(audioKey) : null,
                vectors ? store.presignGet(vectorsKey, presignTtl) : null, vectors ? store.location(vectorsKey) : null,
                clock.instant().plus(presignTtl));
    }

    private static SubmitOutcome seenByClient(SubmitOutcome outcome, String clientId) {
        if (outcome instanceof SubmitOutcome.Duplicate d) {
            return new SubmitOutcome.Duplicate(d.view().seenAs(clientId));
        }
        if (outcome instanceof SubmitOutcome.Cached c) {
            return new SubmitOutcome.Cached(c.view().seenAs(clientId));
        }
        if (outcome instanceof SubmitOutcome.Unavailable u) {
            return new SubmitOutcome.Unavailable(clientId, u.message());
        }
        return outcome;
    }

    private static CancelOutcome seenByClient(CancelOutcome outcome, String clientId) {
        if (outcome instanceof CancelOutcome.Cancelled c) {
            return new CancelOutcome.Cancelled(c.view().seenAs(clientId));
        }
        if (outcome instanceof CancelOutcome.AlreadyCancelled c) {
            return new CancelOutcome.AlreadyCancelled(c.view().seenAs(clientId));
        }
        if (outcome instanceof CancelOutcome.NotCancellable c) {
            return new CancelOutcome.NotCancellable(c.view().seenAs(clientId));
        }
        if (outcome instanceof CancelOutcome.PartOfBatch p) {
            return new CancelOutcome.PartOfBatch(p.view().seenAs(clientId), p.batchId());
        }
        if (outcome instanceof CancelOutcome.NotFound) {
            return new CancelOutcome.NotFound(clientId);
        }
        return outcome;
    }
}
