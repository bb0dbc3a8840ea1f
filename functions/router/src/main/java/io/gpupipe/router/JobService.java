package io.gpupipe.router;

import io.gpupipe.jobs.CancelOutcome;
import io.gpupipe.jobs.JobCanceller;
import io.gpupipe.jobs.JobLifecycle;
import io.gpupipe.jobs.JobSubmitter;
import io.gpupipe.jobs.SubmitOutcome;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.port.OwnedJobStore;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.RequestIds;
import io.gpupipe.model.Task;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobView;
import io.gpupipe.model.observability.LogFields;
import io.gpupipe.model.owner.CallerOwners;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.routing.RoutingDecision;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.router.StatusOutcome.ResultLinks;
import io.gpupipe.router.internal.RoutingMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.MDC;

/**
 * The router's use cases, each for one caller ({@link CallerOwners}: its owner id, and the earlier ids it is still
 * known by): submit (validate, route, then the submission rule of {@link JobSubmitter}, which answers from the result
 * cache once the marker is claimed, or counts the job against the caller's limit and enqueues), status (marker +
 * result, presigned links) and cancel (the rule of {@link JobCanceller}; a batch's lines only with their batch). A
 * caller's requestId names the job stored under {@link JobKey#submitted}, read through {@link OwnedJobStore}: another
 * caller's job is never found, and every answer shows the id the caller chose.
 */
public final class JobService {
    private final JobRequestParser parser;
    private final RoutingPolicy policy;
    private final JobLifecycle jobs;
    private final JobStore store;
    private final RoutingMetrics metrics;
    private final Clock clock;
    private final Duration presignTtl;

    /** {@code jobs}: the submit and cancel rules over {@code store}, assembled once ({@link JobLifecycle#of}). */
    public JobService(JobRequestParser parser, RoutingPolicy policy, JobLifecycle jobs, JobStore store,
                      RoutingMetrics metrics, Clock clock, Duration presignTtl) {
        this.parser = parser;
        this.policy = policy;
        this.jobs = jobs;
        this.store = store;
        this.metrics = metrics;
        this.clock = clock;
        this.presignTtl = presignTtl;
    }

    /**
     * Validates, routes and submits as {@code owner}. Every 2xx answer is backed by a message this call sent, a result
     * this call stored (a cache hit), or a marker a worker or the client has moved on from, so an accepted job is never
     * left reading {@code queued} with no queue holding it: see docs/architecture.md, "Job lifecycle".
     */
    public SubmitOutcome submit(String body, CallerOwners owners) {
        JobRequestParser.Outcome parsed = parser.parse(body, JobRequestParser.Source.API);
        if (parsed instanceof JobRequestParser.Outcome.Invalid invalid) {
            return new SubmitOutcome.Rejected(invalid.errors(), invalid.requestId());
        }
        Instant now = clock.instant();
        JobRequestParser.Outcome.Valid valid = (JobRequestParser.Outcome.Valid) parsed;
        InferenceJob job = valid.job().withSubmittedAt(now).submittedBy(owners.current());
        // a resubmission of a job the caller submitted under an earlier owner id (before a key rotation or the
        // upgrade to keyed ids) is that job, not a second one; a requestId the parser generated has no earlier job,
        // so only a client that names its ids pays the extra read, and only while earlier ids are honoured
        Optional<FoundJob> earlier = valid.requestIdChosen() ? firstFound(owners.earlier(), job.clientRequestId())
                : Optional.empty();
        if (earlier.isPresent()) {
            return new SubmitOutcome.Duplicate(earlier.get().seen());
        }
        RoutingDecision decision = policy.route(job);
        // every log line of this submission names the job (JSON logs: mdc.requestId, mdc.tier)
        MDC.put(LogFields.REQUEST_ID, job.requestId());
        MDC.put(LogFields.TIER, decision.tier().wireName());
        try {
            SubmitOutcome outcome = jobs.submitter().submit(job, decision);
            if (outcome instanceof SubmitOutcome.Accepted) {
                metrics.routed(job, decision);
            }
            return outcome;
        } finally {
            MDC.remove(LogFields.REQUEST_ID);
            MDC.remove(LogFields.TIER);
        }
    }

    /** The caller's job {@code rawId}: under its current owner id, else under an earlier one it is still known by. */
    public StatusOutcome status(String rawId, CallerOwners owners) {
        if (!RequestIds.isValid(rawId)) {
            return new StatusOutcome.InvalidId(rawId);
        }
        return firstFound(owners.all(), rawId).<StatusOutcome>map(found -> new StatusOutcome.Found(found.seen(),
                links(found.key().storedId(), found.view()))).orElseGet(() -> new StatusOutcome.NotFound(
                RequestIds.normalize(rawId)));
    }

    /**
     * Cancels the caller's job if it has not started (under its current owner id, else an earlier one); a cancelled
     * job no longer counts against the caller's limit.
     */
    public CancelOutcome cancel(String rawId, CallerOwners owners) {
        if (!RequestIds.isValid(rawId)) {
            return new CancelOutcome.InvalidId(rawId);
        }
        CancelOutcome outcome = null;
        for (Owner owner : owners.all()) {
            outcome = jobs.canceller().cancel(JobKey.submitted(owner, rawId));
            if (!(outcome instanceof CancelOutcome.NotFound)) {
                return outcome;
            }
        }
        return outcome;
    }

    /** A job found under one of a caller's owner ids: its key, its stored view, and the view its client sees. */
    private record FoundJob(JobKey key, JobView view) {
        JobView seen() {
            return view.seenAs(key.clientRequestId());
        }
    }

    /** The job {@code clientRequestId} names under the first of {@code owners} that holds one (one read per id). */
    private Optional<FoundJob> firstFound(List<Owner> owners, String clientRequestId) {
        for (Owner owner : owners) {
            JobKey key = JobKey.submitted(owner, clientRequestId);
            Optional<JobView> view = new OwnedJobStore(store, owner).view(key.storedId());
            if (view.isPresent()) {
                return Optional.of(new FoundJob(key, view.get()));
            }
        }
        return Optional.empty();
    }

    /** Presigned links to the result (and audio) of the job a client sees as {@code view}, for {@code owner}. */
    ResultLinks links(Owner owner, JobView view) {
        return links(JobKey.submitted(owner, view.requestId()).storedId(), view);
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
}
