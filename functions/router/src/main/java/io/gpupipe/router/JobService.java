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
import io.gpupipe.model.routing.RoutingDecision;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.router.StatusOutcome.ResultLinks;
import io.gpupipe.router.internal.FaultInjection;
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
 * The router's use cases: submit (validate, route, then the submission rule of {@link JobSubmitter}, which answers
 * from the result cache once the marker is claimed, or enqueues), status (marker + result, presigned links) and
 * cancel (the rule of {@link JobCanceller}; a batch's lines only with their batch).
 */
public final class JobService {
    private final JobRequestParser parser;
    private final RoutingPolicy policy;
    private final JobStore store;
    private final RoutingMetrics metrics;
    private final Clock clock;
    private final Duration presignTtl;
    private final JobSubmitter submitter;
    private final JobCanceller canceller;

    /** A router without the result cache. */
    public JobService(JobRequestParser parser, RoutingPolicy policy, JobStore store, JobQueue queue,
                      RoutingMetrics metrics, Clock clock, Duration presignTtl, FaultInjection faults) {
        this(parser, policy, store, queue, metrics, clock, presignTtl, faults, ResultCache.disabled());
    }

    public JobService(JobRequestParser parser, RoutingPolicy policy, JobStore store, JobQueue queue,
                      RoutingMetrics metrics, Clock clock, Duration presignTtl, FaultInjection faults,
                      ResultCache cache) {
        this.parser = parser;
        this.policy = policy;
        this.store = store;
        this.metrics = metrics;
        this.clock = clock;
        this.presignTtl = presignTtl;
        this.submitter = new JobSubmitter(store, queue, clock, faults::afterMarkerWritten, cache::answer);
        this.canceller = new JobCanceller(store, clock);
    }

    /**
     * Validates, routes and submits. Every 2xx answer is backed by a message this call sent, a result this call
     * stored (a cache hit), or a marker a worker or the client has moved on from, so an accepted job is never left
     * reading {@code queued} with no queue holding it: see docs/architecture.md, "Job lifecycle".
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
            SubmitOutcome outcome = submitter.submit(job, decision);
            if (outcome instanceof SubmitOutcome.Accepted) {
                metrics.routed(job, decision);
            }
            return outcome;
        } finally {
            MDC.remove(LogFields.REQUEST_ID);
            MDC.remove(LogFields.TIER);
        }
    }

    public StatusOutcome status(String rawId) {
        if (!JobRequestParser.isValidRequestId(rawId)) {
            return new StatusOutcome.InvalidId(rawId);
        }
        String id = JobRequestParser.normalizeRequestId(rawId);
        return store.view(id).<StatusOutcome>map(v -> new StatusOutcome.Found(v, links(v)))
                .orElseGet(() -> new StatusOutcome.NotFound(id));
    }

    public CancelOutcome cancel(String rawId) {
        if (!JobRequestParser.isValidRequestId(rawId)) {
            return new CancelOutcome.InvalidId(rawId);
        }
        return canceller.cancel(JobRequestParser.normalizeRequestId(rawId), JobCanceller.Scope.SINGLE_JOB);
    }

    /** Presigned links to the job's result (and audio), none while it has no result. */
    ResultLinks links(JobView view) {
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
}
