package io.gpupipe.router;

import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.OwnedBatchStore;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchProgress;
import io.gpupipe.model.batch.BatchRetry;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.owner.CallerOwners;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * {@code POST /v1/batches/{id}/retry}: a new batch of the ended batch's failed, expired and cancelled lines
 * ({@link BatchRetry}), same {@code custom_id}s, linked both ways ({@code retry_of}, {@code retried_by}). The old
 * batch is claimed first (its record names the new id, conditionally: of two concurrent retries one wins), then the
 * new batch goes through the one admission of every batch ({@link BatchService#accept}: record, caller's limit,
 * queue); refused or failing, the claim is taken back. The batch function writes the new input file from the old
 * one at PLAN: the router reads one record and one listing, whatever the batch's size.
 */
public final class BatchRetries {
    private static final Logger LOG = Logger.getLogger(BatchRetries.class);

    private final BatchService batches;
    private final BatchStore store;
    private final Clock clock;
    private final Supplier<UUID> ids;

    public BatchRetries(BatchService batches, BatchStore store, Clock clock, Supplier<UUID> ids) {
        this.batches = batches;
        this.store = store;
        this.clock = clock;
        this.ids = ids;
    }

    public BatchOutcome retry(String rawId, CallerOwners owners) {
        if (!BatchIds.isValidBatchId(rawId)) {
            return new BatchOutcome.InvalidId();
        }
        if (!batches.enabled()) {
            return BatchService.notEnabled();
        }
        BatchStore owned = new OwnedBatchStore(store, owners);
        Optional<BatchState> read = owned.read(rawId).map(BatchStore.StoredBatch::state);
        if (read.isEmpty()) {
            return new BatchOutcome.NotFound(rawId);
        }
        // a finalizer that wrote the terminal record but not yet the batch record: the terminal record is the truth
        Optional<BatchState> terminal = read.get().status().isTerminal() ? read : owned.readFinal(rawId);
        BatchState old = terminal.orElse(read.get());
        BatchRetry.Decision decision = BatchRetry.decide(old, BatchProgress.ofKeys(
                owned.list(BatchLayout.endedPrefix(rawId)), List.of()).endedCounts());
        if (decision instanceof BatchRetry.Decision.NotEnded notEnded) {
            return conflict("status", ApiErrorCodes.NOT_ENDED, "batch " + rawId + " is "
                    + notEnded.status().wireName() + ": it can be retried once it has ended (cancel it to end it "
                    + "sooner)");
        }
        if (decision instanceof BatchRetry.Decision.AlreadyRetried retried) {
            return alreadyRetried(rawId, retried.retryId());
        }
        if (decision instanceof BatchRetry.Decision.NothingToRetry nothing) {
            return conflict("batch_id", ApiErrorCodes.NOTHING_TO_RETRY, "batch " + rawId + " has nothing to retry: "
                    + nothing.why());
        }
        return create(owned, old, ((BatchRetry.Decision.Retry) decision).lines());
    }

    private BatchOutcome create(BatchStore owned, BatchState old, int lines) {
        if (store.size(old.inputFileId()).isEmpty()) {
            return conflict("input_file_id", ApiErrorCodes.INPUT_FILE_MISSING, "the input file " + old.inputFileId()
                    + " of batch " + old.id() + " is gone (kept as long as results are), so its lines cannot be "
                    + "copied");
        }
        String retryId = BatchIds.newBatchId(ids.get());
        BatchState retry = BatchState.retryOf(old, retryId, BatchLayout.retryInputKey(retryId), clock.instant());
        BatchState claimed = owned.update(old.id(), s -> {
            BatchState base = s.status().isTerminal() ? s : old;
            return base.retriedBy() == null ? Optional.of(base.withRetriedBy(retry.id())) : Optional.empty();
        }).orElseThrow(() -> new IllegalStateException("batch " + old.id() + " vanished while being retried"));
        if (!retry.id().equals(claimed.retriedBy())) {
            return alreadyRetried(old.id(), claimed.retriedBy());
        }
        BatchOutcome accepted;
        try {
            accepted = batches.accept(retry);
        } catch (RuntimeException e) {
            release(owned, old.id(), retry.id());
            throw e;
        }
        if (accepted instanceof BatchOutcome.Found) {
            LOG.infof("batch %s retries %d line(s) of batch %s", retry.id(), lines, old.id());
        } else {
            release(owned, old.id(), retry.id());
        }
        return accepted;
    }

    /** The retry was not accepted: the old batch no longer names it (unless another change already did). */
    private static void release(BatchStore owned, String oldId, String retryId) {
        owned.update(oldId, s -> retryId.equals(s.retriedBy()) ? Optional.of(s.withRetriedBy(null))
                : Optional.empty());
    }

    private static BatchOutcome alreadyRetried(String id, String retryId) {
        return conflict("batch_id", ApiErrorCodes.ALREADY_RETRIED, "batch " + id + " was already retried by "
                + retryId + " (retry that batch to retry again)");
    }

    private static BatchOutcome conflict(String field, String code, String message) {
        return new BatchOutcome.Conflict(new FieldError(field, code, message));
    }
}
