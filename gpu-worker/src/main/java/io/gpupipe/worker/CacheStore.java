package io.gpupipe.worker;

import io.gpupipe.model.cache.CacheEntry;

/** The result cache as the worker writes it ({@code cache/} of the results bucket; S3 behind {@code S3CacheStore}). */
public interface CacheStore {

    /** Writes the entry only if its key has none ({@code If-None-Match: *}); false when another entry is there. */
    boolean putEntryIfAbsent(CacheEntry entry);

    /** Copies one object of the bucket to another key, server-side (S3 CopyObject). */
    void copy(String fromKey, String toKey);

    /** Deletes one object of the bucket. */
    void delete(String key);
}
