package io.gpupipe.jobs;

import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.jobs.port.JobStore.StoredMarker;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.port.OwnedJobStore;
import io.gpupipe.jobs.port.QueueRejectedMessageException;
import io.gpupipe.jobs.port.QueueUnavailableException;
import io.gpupipe.jobs.port.StoreRetries;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.jobs.quota.JobQuota;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.QuotaSlot;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.JobView;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.model.routing.RoutingDecision;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * How a routed job is submitted, for the router (one job) and the batch function (a chunk): write the queued marker
 * create-only, send, and take the marker back if the send failed; a requestId whose marker exists is a resubmission
 * (enqueued again only while it is still queued with no result, after a rewrite conditional on the ETag read). So
 * every accepted job is backed by a message this call sent, or by a marker that moved on: see docs/architecture.md,
 * "Job lifecycle". A single job is read as its owner sees it ({@link JobStore#ownedBy}). A chunk's markers are
 * written concurrently and its new jobs sent in batches of SendMessageBatch.
 */
public final class JobSubmitter {
    private static final Logger LOG = Logger.getLogger(JobSubmitter.class);

    private final JobStore store;
    private final JobQueue queue;
    private final Clock clock;
    private final Consumer<String> afterMarkerWritten;
    private final CacheShortcut shortcut;
    private final JobQuota quota;

    /**
     * {@code afterMarkerWritten} runs between a marker write and its send (the router's fault-injection hook);
     * {@code shortcut} may answer a single job once its marker is claimed (so a hit never answers for a requestId
     * another request holds), and {@code quota} counts a single job before anything of it is written (so a refusal
     * writes nothing: accepted is the slot, the marker and the send), its marker naming the slot it holds; a hit (already
     * finished), a resubmission (its first submission holds a slot) and a job taken back give the slot back. A
     * caller at its limit is refused before its requestId is read, a resubmission too. A chunk's jobs ({@link #submitAll}) are always sent, and never counted. Built once, with
     * every collaborator: see {@link JobLifecycle}.
     */
    public JobSubmitter(JobStore store, JobQueue queue, Clock clock, Consumer<String> afterMarkerWritten,
                        CacheShortcut shortcut, JobQuota quota) {
        this.store = store;
        this.queue = queue;
        this.clock = clock;
        this.afterMarkerWritten = afterMarkerWritten;
        this.shortcut = shortcut;
        this.quota = quota;
    }

    /**
     * One job: {@link SubmitOutcome.Accepted} once sent, {@link SubmitOutcome.Cached} when the shortcut answered
     * it, {@link SubmitOutcome.Duplicate} for a resubmission, {@link SubmitOutcome.QuotaExceeded} when its owner is
     * at the limit (nothing written), {@link SubmitOutcome.Unavailable} when it could not be enqueued (its marker taken
     * back when possible, and then its slot given back).
     *
     * @throws QueueRejectedMessageException when SQS refused the message (a bug: the marker was taken back)
     * @throws StoreUnavailableException when the marker or the owner's count could not be written
     */
    public SubmitOutcome submit(InferenceJob job, RoutingDecision decision) {
        JobStore store = job.owner() == null ? this.store : new OwnedJobStore(this.store, new Owner(job.owner()));
        JobQuota.Admission admission = quota.admit(job);
        if (admission instanceof JobQuota.Admission.Refused refused) {
            LOG.infof("%s refused: its owner has %d unfinished jobs", job.requestId(), refused.limit());
            return new SubmitOutcome.QuotaExceeded(job.visibleRequestId(), refused.limit(), refused.retryAfter());
        }
        Optional<QuotaSlot> slot = ((JobQuota.Admission.Admitted) admission).slot();
        Claim claim;
        try {
            claim = claim(store, job, decision.tier(), slot);
        } catch (StoreUnavailableException e) {
            slot.ifPresent(held -> quota.giveBack(job, held));
            throw e;
        }
        if (claim instanceof Claim.Settled settled) {
            // a resubmission: the job holds the slot its first submission claimed
            slot.ifPresent(held -> quota.giveBack(job, held));
            return settled.outcome();
        }
        Optional<JobResult> answered = shortcut.answer(job, decision.tier());
        if (answered.isPresent()) {
            slot.ifPresent(held -> quota.giveBack(job, held));
            JobState marker = JobState.queued(job, decision.tier(), job.submittedAt());
            return new SubmitOutcome.Cached(JobView.of(job.key(), Optional.of(marker), answered).orElseThrow());
        }
        String markerETag = ((Claim.Created) claim).markerETag();
        afterMarkerWritten.accept(job.requestId());
        try {
            queue.send(job, decision.tier());
        } catch (QueueUnavailableException | StoreUnavailableException | QueueRejectedMessageException e) {
            LOG.errorf("enqueue failed, taking back the marker of %s: %s", job.requestId(), e.getMessage());
            if (takeBackMarker(store, job.requestId(), markerETag)) {
                slot.ifPresent(held -> quota.giveBack(job, held));
            }
            if (e instanceof QueueRejectedMessageException rejected) {
                throw rejected;
            }
            return unavailable(job, decision.tier());
        }
        return new SubmitOutcome.Accepted(job, decision);
    }

    /**
     * Many jobs (a chunk of a batch): the same rule per job, markers written on {@code markerWriters}, new jobs
     * sent in batches per tier. Never throws for one job: each outcome is in the answer, in the order given.
     */
    public List<SubmitOutcome> submitAll(List<RoutedJob> jobs, Executor markerWriters) {
        List<CompletableFuture<Claim>> claims = jobs.stream().map(routed -> CompletableFuture.supplyAsync(
                () -> claimOrUnavailable(routed), markerWriters)).toList();
        Map<String, SubmitOutcome> outcomes = new LinkedHashMap<>();
        Map<Tier, List<RoutedJob>> created = new LinkedHashMap<>();
        Map<String, String> eTags = new LinkedHashMap<>();
        for (int i = 0; i < jobs.size(); i++) {
            RoutedJob routed = jobs.get(i);
            Claim claim = claims.get(i).join();
            if (claim instanceof Claim.Created fresh) {
                afterMarkerWritten.accept(routed.job().requestId());
                created.computeIfAbsent(routed.decision().tier(), t -> new ArrayList<>()).add(routed);
                eTags.put(routed.job().requestId(), fresh.markerETag());
            } else {
                outcomes.put(routed.job().requestId(), ((Claim.Settled) claim).outcome());
            }
        }
        created.forEach((tier, routed) -> {
            Map<String, JobQueue.SendFailure> failed = queue.sendAll(tier, routed.stream().map(RoutedJob::job)
                    .toList());
            for (RoutedJob one : routed) {
                String id = one.job().requestId();
                JobQueue.SendFailure failure = failed.get(id);
                if (failure == null) {
                    outcomes.put(id, new SubmitOutcome.Accepted(one.job(), one.decision()));
                } else {
                    LOG.errorf("enqueue failed, taking back the marker of %s (%s): %s", id,
                            failure.rejected() ? "refused by SQS, a bug" : "outage", failure.reason());
                    takeBackMarker(store, id, eTags.get(id));
                    outcomes.put(id, unavailable(one.job(), tier));
                }
            }
        });
        return jobs.stream().map(routed -> outcomes.get(routed.job().requestId())).toList();
    }

    private Claim claimOrUnavailable(RoutedJob routed) {
        try {
            return claim(store, routed.job(), routed.decision().tier(), Optional.empty());
        } catch (StoreUnavailableException e) {
            LOG.errorf("cannot submit %s: %s", routed.job().requestId(), e.getMessage());
            return new Claim.Settled(unavailable(routed.job(), routed.decision().tier()));
        }
    }

    /** The marker is ours to send for ({@link Claim.Created}), or the submission is already answered. */
    private sealed interface Claim {
        record Created(String markerETag) implements Claim {
        }

        record Settled(SubmitOutcome outcome) implements Claim {
        }
    }

    /** Claims the job's marker, naming the {@code slot} of its owner's limit that it holds. */
    private Claim claim(JobStore store, InferenceJob job, Tier tier, Optional<QuotaSlot> slot) {
        JobState marker = JobState.queued(job, tier, clock.instant()).holding(slot.orElse(null));
        Retry retry = StoreRetries.CONFIGURED.changedMarkers().start();
        do {
            Optional<String> created = store.createMarker(marker);
            if (created.isPresent()) {
                return new Claim.Created(created.get());
            }
            Optional<StoredMarker> existing = store.readMarker(job.requestId());
            if (existing.isEmpty()) {
                LOG.infof("marker of %s was taken back while resubmitting (attempt %d); creating it", job.requestId(),
                        retry.attempt());
                continue;
            }
            if (existing.get().state().equals(marker)) {
                // an SDK retry of our own create met the object its first attempt wrote (same submittedAt to the ns)
                return new Claim.Created(existing.get().eTag());
            }
            return new Claim.Settled(resubmit(store, job, existing.get()));
        } while (retry.another());
        throw new StoreUnavailableException("the marker of " + job.requestId() + " kept changing while submitting ("
                + retry.attempt() + " attempts)", null);
    }

    /**
     * A resubmitted requestId. A marker still {@code queued} with no result may belong to a submission that died
     * between marker and send, or whose send failed while its take-back did too, or that is still in flight and may
     * yet fail: the job goes on its queue again, unless a resubmission re-sent it lately ({@link ResendRule}); the
     * worker de-duplicates (create-only results, conditional running marker). The send comes first, then the rewrite
     * conditional on the ETag read that records it: that rewrite makes the original submitter's conditional take-back
     * fail, and a submission dying between the two leaves the marker saying no copy was sent, so the answer given
     * here is true either way.
     */
    private SubmitOutcome resubmit(JobStore store, InferenceJob job, StoredMarker stored) {
        JobState state = stored.state();
        Optional<JobResult> result = store.readResult(job.requestId());
        if (state.status() != JobStatus.QUEUED || result.isPresent() || !state.describes(job)) {
            // moved on, finished, or another request reusing this requestId: nothing of it may reach a queue
            return duplicate(job.key(), Optional.of(state), result);
        }
        if (!ResendRule.mayHaveBeenLost(state, clock.instant())) {
            return duplicate(job.key(), Optional.of(state), result); // a copy went to the queue lately
        }
        afterMarkerWritten.accept(job.requestId());
        InferenceJob original = job.withSubmittedAt(state.submittedAt());
        try {
            queue.send(original, state.tier());
        } catch (QueueUnavailableException | StoreUnavailableException e) {
            // the marker is not ours to take back: its creator may have enqueued the job; the client retries
            LOG.errorf("re-enqueue of resubmitted %s failed: %s", job.requestId(), e.getMessage());
            return new SubmitOutcome.Unavailable(job.visibleRequestId(), "the " + state.tier().wireName()
                    + " queue is unavailable; retry later");
        }
        JobState requeued = state.requeued(clock.instant());
        if (!store.replaceMarker(requeued, stored.eTag())) {
            // a worker, a cancel or another resubmission changed it, or its submitter took it back: the copy is sent
            LOG.infof("marker of %s changed while it was enqueued again; the copy stays", job.requestId());
        }
        LOG.infof("resubmitted %s was still queued with no result: enqueued again to %s", job.requestId(),
                state.tier().wireName());
        return duplicate(job.key(), Optional.of(requeued), Optional.empty());
    }

    private static SubmitOutcome duplicate(JobKey key, Optional<JobState> marker, Optional<JobResult> result) {
        return new SubmitOutcome.Duplicate(JobView.of(key, marker, result).orElseThrow());
    }

    private static SubmitOutcome unavailable(InferenceJob job, Tier tier) {
        return new SubmitOutcome.Unavailable(job.visibleRequestId(), "the " + tier.wireName()
                + " queue is unavailable; the job was not accepted, retry later");
    }

    /**
     * Deletes the marker this call wrote, and only that version: a resubmission may have rewritten it since (and
     * enqueued the job). True when it was deleted: the job is then gone for good.
     */
    private static boolean takeBackMarker(JobStore store, String requestId, String eTag) {
        try {
            if (store.deleteMarker(requestId, eTag)) {
                return true;
            }
            LOG.infof("marker of unqueued job %s was rewritten by a resubmission; left in place", requestId);
        } catch (StoreUnavailableException e) {
            LOG.errorf("could not delete the marker of unqueued job %s; it reads queued until the client's retry"
                    + " (answered 503) enqueues it: %s", requestId, e.getMessage());
        }
        return false;
    }
}
