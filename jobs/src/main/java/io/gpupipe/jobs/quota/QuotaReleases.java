package io.gpupipe.jobs.quota;

import io.gpupipe.model.owner.Owner;

/**
 * Where the notifier releases what ended from its owner's limits in one results bucket: a job's slot
 * ({@link JobSlotReleases}), a batch's entries in its ledgers of batches and of lines ({@link OwnerQuotas}). It sees
 * every result (worker, dead-letter, cache hit) and every batch's terminal record, each at least once; a release is
 * idempotent, so a repeated event changes nothing.
 */
public interface QuotaReleases {
    /** The ledgers of unfinished batches and their lines in {@code bucket}. */
    OwnerQuotas in(String bucket);

    /** The job slots in {@code bucket}. */
    JobSlotReleases jobsIn(String bucket);

    /** Stops counting {@code id} against {@code owner} (a caller: a queue job was never counted). */
    default void release(String bucket, String owner, QuotaKind kind, String id) {
        if (owner != null && Owner.isValid(owner) && new Owner(owner).isCaller()) {
            switch (kind) {
                case JOBS -> jobsIn(bucket).release(new Owner(owner), id);
                case BATCHES, BATCH_LINES -> in(bucket).release(new Owner(owner), kind, id);
            }
        }
    }
}
