package io.gpupipe.router.aws;

import io.gpupipe.model.JobResult;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import java.util.Optional;

/**
 * The result cache as the router reads it, and what a hit writes: the job's result (create-only) and, for speech,
 * its own copy of the cached audio. Failures to reach the store throw
 * {@link io.gpupipe.submission.exception.StoreUnavailableException}.
 */
public interface CacheStore {
    /** The entry stored under {@code key}, or empty when there is none (or it cannot be read). */
    Optional<CacheEntry> readEntry(CacheKey key);

    /**
     * Copies an object of the bucket server-side, only if the destination does not exist; false when the source is
     * gone (e.g. expired) or the destination is already there.
     */
    boolean copy(String fromKey, String toKey);

    /** Writes the job's result only if it has none ({@code If-None-Match: *}); false when one is there. */
    boolean createResult(JobResult result);
}
