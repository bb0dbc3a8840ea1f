package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.owner.Owner;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A batch as stored at {@link BatchLayout#recordKey} (and, once terminal, at {@link BatchLayout#finalKey}): the
 * request, its status and timestamps, the plan once the input was read, and the counts and files once finished.
 * Changes are copies; the stores write them conditionally on the version read. {@code owner} is the caller that
 * created it ({@link io.gpupipe.model.owner.Owner}): only that caller sees it, and its lines' jobs are that owner's.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchState(
        String id,
        BatchEndpoint endpoint,
        String inputFileId,
        String completionWindow,
        Map<String, String> metadata,
        String callbackUrl,
        BatchStatus status,
        Instant createdAt,
        Instant expiresAt,
        Instant inProgressAt,
        Instant finalizingAt,
        Instant completedAt,
        Instant failedAt,
        Instant expiredAt,
        Instant cancellingAt,
        Instant cancelledAt,
        BatchPlan plan,
        RequestCounts counts,
        String outputFileId,
        String errorFileId,
        List<BatchError> errors,
        String owner,
        String retryOf,
        String retriedBy) {
    /** The metadata key under which a retry batch names the batch it retries (ours, shown on top of the caller's). */
    public static final String RETRY_OF_KEY = "retry_of";
    /** The metadata key under which a retried batch names its retry batch. */
    public static final String RETRIED_BY_KEY = "retried_by";

    public BatchState {
        if (!BatchIds.isValidBatchId(id) || endpoint == null || status == null || createdAt == null) {
            throw new IllegalArgumentException("a batch needs an id, endpoint, status and creation time");
        }
        metadata = metadata == null ? null : Map.copyOf(metadata);
        errors = errors == null ? null : List.copyOf(errors);
    }

    /** A new batch of {@code owner}, validating until its input is read. */
    public static BatchState created(String id, BatchRequest request, Owner owner, Instant now) {
        return new BatchState(id, request.endpoint(), request.inputFileId(), request.completionWindow(),
                request.metadata(), request.callbackUrl(), BatchStatus.VALIDATING, now,
                now.plus(BatchLimits.COMPLETION_WINDOW_DURATION), null, null, null, null, null, null, null, null,
                null, null, null, null, owner.value(), null, null);
    }

    /**
     * A new batch retrying some lines of {@code old} (same owner, endpoint, metadata and callback), whose input the
     * batch function writes at {@code inputKey} from the old batch's lines to retry before planning it.
     */
    public static BatchState retryOf(BatchState old, String id, String inputKey, Instant now) {
        return new BatchState(id, old.endpoint, inputKey, old.completionWindow, old.metadata, old.callbackUrl,
                BatchStatus.VALIDATING, now, now.plus(BatchLimits.COMPLETION_WINDOW_DURATION), null, null, null, null,
                null, null, null, null, null, null, null, null, old.owner, old.id, null);
    }

    /** This batch, naming the batch that retries it ({@code null}: the retry was taken back). */
    public BatchState withRetriedBy(String retryId) {
        return new BatchState(id, endpoint, inputFileId, completionWindow, metadata, callbackUrl, status, createdAt,
                expiresAt, inProgressAt, finalizingAt, completedAt, failedAt, expiredAt, cancellingAt, cancelledAt,
                plan, counts, outputFileId, errorFileId, errors, owner, retryOf, retryId);
    }

    /**
     * The metadata as answered: the caller's pairs, and the retry links ({@link #RETRY_OF_KEY}, {@link
     * #RETRIED_BY_KEY}) on top, replacing a pair of the same name. Null when there is none.
     */
    public Map<String, String> shownMetadata() {
        if (retryOf == null && retriedBy == null) {
            return metadata;
        }
        Map<String, String> shown = new TreeMap<>(metadata == null ? Map.of() : metadata);
        if (retryOf != null) {
            shown.put(RETRY_OF_KEY, retryOf);
        }
        if (retriedBy != null) {
            shown.put(RETRIED_BY_KEY, retriedBy);
        }
        return shown;
    }

    /** The owner whose batch this is; {@link Owner#QUEUE} for a record written before batches had owners. */
    public Owner ownedBy() {
        return owner == null ? Owner.QUEUE : new Owner(owner);
    }

    /** The input was read: in progress (a batch cancelled meanwhile stays cancelling, with its plan). */
    public BatchState planned(BatchPlan newPlan, Instant now) {
        BatchStatus next = status == BatchStatus.CANCELLING ? BatchStatus.CANCELLING : BatchStatus.IN_PROGRESS;
        return copy(next, newPlan, now, Stamp.IN_PROGRESS, counts, outputFileId, errorFileId, errors);
    }

    /** The input cannot be a batch: failed, with why. */
    public BatchState failed(List<BatchError> why, Instant now) {
        return copy(BatchStatus.FAILED, plan, now, Stamp.FAILED, RequestCounts.NONE, null, null, why);
    }

    /** True while a cancel can still take effect. */
    public boolean isCancellable() {
        return status == BatchStatus.VALIDATING || status == BatchStatus.IN_PROGRESS;
    }

    public BatchState cancelling(Instant now) {
        if (!isCancellable()) {
            throw new IllegalStateException("a " + status.wireName() + " batch cannot be cancelled");
        }
        return copy(BatchStatus.CANCELLING, plan, now, Stamp.CANCELLING, counts, outputFileId, errorFileId, errors);
    }

    /**
     * Every line ended and the files are written: cancelled if a cancel was asked, expired if a line outlived the
     * window, completed otherwise. {@code finalizingAt} is when the finalizer started.
     */
    public BatchState finished(LineCounts lines, String outputKey, String errorKey, Instant finalizingStarted,
                               Instant now) {
        int total = plan == null ? 0 : plan.lines();
        BatchStatus next = status == BatchStatus.CANCELLING ? BatchStatus.CANCELLED
                : lines.expired() > 0 ? BatchStatus.EXPIRED : BatchStatus.COMPLETED;
        Stamp stamp = switch (next) {
            case CANCELLED -> Stamp.CANCELLED;
            case EXPIRED -> Stamp.EXPIRED;
            case COMPLETED -> Stamp.COMPLETED;
            case VALIDATING, FAILED, IN_PROGRESS, FINALIZING, CANCELLING -> throw new IllegalStateException(
                    "a finished batch is cancelled, expired or completed");
        };
        BatchState finalizing = new BatchState(id, endpoint, inputFileId, completionWindow, metadata, callbackUrl,
                status, createdAt, expiresAt, inProgressAt, finalizingStarted, completedAt, failedAt, expiredAt,
                cancellingAt, cancelledAt, plan, counts, outputFileId, errorFileId, errors, owner, retryOf, retriedBy);
        return finalizing.copy(next, plan, now, stamp, lines.toRequestCounts(total), outputKey, errorKey, errors);
    }

    private enum Stamp { IN_PROGRESS, FAILED, CANCELLING, CANCELLED, EXPIRED, COMPLETED }

    private BatchState copy(BatchStatus next, BatchPlan newPlan, Instant now, Stamp stamp, RequestCounts newCounts,
                            String output, String error, List<BatchError> why) {
        return new BatchState(id, endpoint, inputFileId, completionWindow, metadata, callbackUrl, next, createdAt,
                expiresAt, stamp == Stamp.IN_PROGRESS ? now : inProgressAt, finalizingAt,
                stamp == Stamp.COMPLETED ? now : completedAt, stamp == Stamp.FAILED ? now : failedAt,
                stamp == Stamp.EXPIRED ? now : expiredAt, stamp == Stamp.CANCELLING ? now : cancellingAt,
                stamp == Stamp.CANCELLED ? now : cancelledAt, newPlan, newCounts, output, error, why, owner, retryOf,
                retriedBy);
    }
}
