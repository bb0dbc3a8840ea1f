package io.gpupipe.adapters;

import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import java.util.Optional;

/**
 * The result cache ({@code cache/} of the results bucket; S3 behind {@code io.gpupipe.adapters.aws.S3CacheStore}):
 * the worker writes entries and their audio, the router reads them and copies a hit's audio. Failures to reach the
 * store throw {@link io.gpupipe.jobs.port.StoreUnavailableException}.
 */
public interface CacheStore {
    /** The entry stored under {@code key}, or empty when there is none (or it cannot be read). */
    Optional<CacheEntry> readEntry(CacheKey key);

    /** Writes the entry only if its key has none ({@code If-None-Match: *}); false when another entry is there. */
    boolean putEntryIfAbsent(CacheEntry entry);

    /**
     * Copies an object of the bucket server-side, only if the destination does not exist; false when the source is
     * gone (e.g. expired) or the destination is already there.
     */
    boolean copyIfAbsent(String fromKey, String toKey);

    /** Copies one object of the bucket to another key, server-side (S3 CopyObject), whatever is there. */
    void copy(String fromKey, String toKey);

    /** Deletes one object of the bucket. */
    void delete(String key);
}
