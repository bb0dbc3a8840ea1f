package io.gpupipe.jobs.quota;

import io.gpupipe.model.owner.Owner;

/**
 * Where the notifier releases what ended from its owner's limit ({@link OwnerQuotas}): the ledgers in one results
 * bucket. It sees every result (worker, dead-letter, cache hit) and every batch's terminal record, each at least
 * once; a release is idempotent, so a repeated event changes nothing.
 */
@FunctionalInterface
public interface QuotaReleases {
    OwnerQuotas in(String bucket);

    /** Stops counting {@code id} against {@code owner} (a caller: a queue job was never counted). */
    default void release(String bucket, String owner, QuotaKind kind, String id) {
        if (owner != null && Owner.isValid(owner) && new Owner(owner).isCaller()) {
            in(bucket).release(new Owner(owner), kind, id);
        }
    }
}
