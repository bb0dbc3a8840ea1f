package io.gpupipe.jobs.port;

import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import java.net.URL;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The batches in the results bucket ({@link io.gpupipe.model.batch.BatchLayout}): the record, written create-only
 * and replaced conditionally, the terminal record (create-only: exactly one finalizer), the empty done, progress and
 * ended records, listings, and presigned links. Failures to reach the store throw {@link StoreUnavailableException}.
 * A caller reads its own batches through an {@link OwnedBatchStore}.
 */
public interface BatchStore {
    /** Writes the batch record only if none exists: its ETag, or empty when one exists. */
    Optional<String> create(BatchState state);

    /** The record and its ETag, or empty when there is no such batch. */
    Optional<StoredBatch> read(String batchId);

    /** Replaces the record only if it still carries {@code eTag}; false when it changed. */
    boolean replace(BatchState state, String eTag);

    /** Deletes the record only if it still carries {@code eTag} (a creation taken back); false otherwise. */
    boolean delete(String batchId, String eTag);

    /** The terminal record, once written. */
    Optional<BatchState> readFinal(String batchId);

    /** Writes the terminal record only if none exists: true for the one finalizer whose write won. */
    boolean createFinal(BatchState terminal);

    /** Writes an empty object at {@code key} only if none exists; false when one does. */
    boolean createEmpty(String key);

    /** Deletes these keys, if they exist. */
    void deleteAll(Collection<String> keys);

    /** Every key under {@code prefix}, in key order (all pages). */
    List<String> list(String prefix);

    /** The size of the object at {@code key}, or empty when there is none. */
    Optional<Long> size(String key);

    /**
     * A presigned PUT of {@code key}, valid for {@code ttl}, of a body of exactly {@code bytes} bytes (Content-Length
     * is a signed header, so S3 refuses any other length): the client uploads an input file with it.
     */
    URL presignPut(String key, Duration ttl, long bytes);

    /** A presigned GET of {@code key}, valid for {@code ttl}. */
    URL presignGet(String key, Duration ttl);

    /** A record as read, with the ETag that makes a conditional replace possible. */
    record StoredBatch(BatchState state, String eTag) {
    }

    /**
     * Applies {@code change} to the record until a conditional replace wins (another writer may have changed it in
     * between: the change is applied to what it wrote). {@code change} answers empty to leave the record as it is.
     * Empty when there is no such batch.
     */
    default Optional<BatchState> update(String batchId, Function<BatchState, Optional<BatchState>> change) {
        Retry retry = StoreRetries.CONFIGURED.changedBatches().start();
        do {
            Optional<StoredBatch> stored = read(batchId);
            if (stored.isEmpty()) {
                return Optional.empty();
            }
            Optional<BatchState> next = change.apply(stored.get().state());
            if (next.isEmpty()) {
                return Optional.of(stored.get().state());
            }
            if (replace(next.get(), stored.get().eTag())) {
                return next;
            }
        } while (retry.another());
        throw new StoreUnavailableException("the record of batch " + batchId + " kept changing (" + retry.attempt()
                + " attempts)", null);
    }
}
