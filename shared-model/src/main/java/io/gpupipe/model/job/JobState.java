package io.gpupipe.model.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.QuotaSlot;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import java.time.Instant;
import java.util.Objects;

/**
 * The job marker at {@code jobs/{id}.json}: written {@code queued} by the router (create-only), then rewritten
 * {@code running} by the worker or {@code cancelled} by the API. Terminal outcomes live in {@link JobResult}. A
 * batch line's marker names its {@code batch}, so that such a job is cancelled only with its batch. It names its
 * {@code owner} and, for a job submitted over the API, the {@code clientRequestId} its client knows it by, and the
 * {@code quotaSlot} it holds of its owner's limit (none when nothing counts it), which every rewrite keeps. A queued
 * marker a resubmission rewrote to send the job again carries {@code resentAt}, when that send was made.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobState(
        String requestId,
        JobStatus status,
        Tier tier,
        Task task,
        Instant submittedAt,
        Instant updatedAt,
        Instant startedAt,
        String taskArn,
        String requestDigest,
        BatchMember batch,
        String owner,
        String clientRequestId,
        QuotaSlot quotaSlot,
        Instant resentAt) {

    public JobState {
        if (requestId == null || status == null) {
            throw new IllegalArgumentException("requestId and status are required");
        }
        if (status != JobStatus.QUEUED && status != JobStatus.RUNNING && status != JobStatus.CANCELLED) {
            throw new IllegalArgumentException("a marker is queued, running or cancelled, not " + status.wireName());
        }
    }

    /**
     * A marker that holds no slot of a limit and that no resubmission has re-sent (markers written before
     * {@code quotaSlot} and {@code resentAt} existed read this way too).
     */
    public JobState(String requestId, JobStatus status, Tier tier, Task task, Instant submittedAt, Instant updatedAt,
                    Instant startedAt, String taskArn, String requestDigest, BatchMember batch, String owner,
                    String clientRequestId) {
        this(requestId, status, tier, task, submittedAt, updatedAt, startedAt, taskArn, requestDigest, batch, owner,
                clientRequestId, null, null);
    }

    /** A marker of no owner (markers written before owners existed read this way too). */
    public JobState(String requestId, JobStatus status, Tier tier, Task task, Instant submittedAt, Instant updatedAt,
                    Instant startedAt, String taskArn, String requestDigest, BatchMember batch) {
        this(requestId, status, tier, task, submittedAt, updatedAt, startedAt, taskArn, requestDigest, batch, null,
                null);
    }

    /** A marker of a job that belongs to no batch. */
    public JobState(String requestId, JobStatus status, Tier tier, Task task, Instant submittedAt, Instant updatedAt,
                    Instant startedAt, String taskArn, String requestDigest) {
        this(requestId, status, tier, task, submittedAt, updatedAt, startedAt, taskArn, requestDigest, null);
    }

    /** A marker without the request digest (markers written before it existed read this way too). */
    public JobState(String requestId, JobStatus status, Tier tier, Task task, Instant submittedAt, Instant updatedAt,
                    Instant startedAt, String taskArn) {
        this(requestId, status, tier, task, submittedAt, updatedAt, startedAt, taskArn, null, null);
    }

    public static JobState queued(InferenceJob job, Tier tier, Instant now) {
        return new JobState(job.requestId(), JobStatus.QUEUED, tier, job.task(), job.submittedAt(), now, null, null,
                job.requestDigest(), job.batch(), job.owner(), job.clientRequestId());
    }

    /**
     * True when {@code job} is the request this marker was written for (same {@link InferenceJob#requestDigest()}),
     * not another request reusing its requestId. A marker without a digest matches nothing.
     */
    public boolean describes(InferenceJob job) {
        return requestDigest != null && requestDigest.equals(job.requestDigest());
    }

    /**
     * True when this marker is held by another job than {@code job}: another owner's, or (when it records a digest)
     * another request under the same id. A message of such a job must not change it.
     */
    public boolean heldByAnother(InferenceJob job) {
        return !Objects.equals(owner, job.owner()) || (requestDigest != null && !describes(job));
    }

    public JobState running(String taskArn, Instant now) {
        return new JobState(requestId, JobStatus.RUNNING, tier, task, submittedAt, now, now, taskArn, requestDigest,
                batch, owner, clientRequestId, quotaSlot, resentAt);
    }

    /**
     * The same queued marker, rewritten at {@code now} by a resubmission that puts the job on its queue again: the
     * new version (and ETag) keeps the original submitter from taking the marker back after its send failed, and
     * {@code resentAt} tells later resubmissions that a copy was sent then.
     */
    public JobState requeued(Instant now) {
        if (status != JobStatus.QUEUED) {
            throw new IllegalStateException("only a queued marker is requeued, not a " + status.wireName() + " one");
        }
        return new JobState(requestId, status, tier, task, submittedAt, now, startedAt, taskArn, requestDigest,
                batch, owner, clientRequestId, quotaSlot, now);
    }

    public JobState cancelled(Instant now) {
        return new JobState(requestId, JobStatus.CANCELLED, tier, task, submittedAt, now, startedAt, taskArn,
                requestDigest, batch, owner, clientRequestId, quotaSlot, resentAt);
    }

    /** The same marker, holding {@code slot} of its owner's limit (null: none). */
    public JobState holding(QuotaSlot slot) {
        return new JobState(requestId, status, tier, task, submittedAt, updatedAt, startedAt, taskArn, requestDigest,
                batch, owner, clientRequestId, slot, resentAt);
    }

    /** Only a job that no worker has started can be cancelled. */
    public boolean isCancellable() {
        return status == JobStatus.QUEUED;
    }
}
