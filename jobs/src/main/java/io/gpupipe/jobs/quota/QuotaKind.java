package io.gpupipe.jobs.quota;

import io.gpupipe.model.owner.Owner;

/**
 * What a per-caller limit counts, each in its own ledger object {@code quotas/{owner hash}/{kind}.json}: unfinished
 * jobs submitted over the API, unfinished batches, and the lines of unfinished batches (a batch's lines count
 * against these two, not against the jobs limit).
 */
public enum QuotaKind {
    JOBS("jobs", "unfinished jobs"),
    BATCHES("batches", "unfinished batches"),
    BATCH_LINES("batch-lines", "unfinished batch lines");

    public static final String PREFIX = "quotas/";

    private final String fileName;
    private final String counted;

    QuotaKind(String fileName, String counted) {
        this.fileName = fileName;
        this.counted = counted;
    }

    /** The key of {@code owner}'s ledger of this kind (only API callers have ledgers). */
    public String ledgerKey(Owner owner) {
        return PREFIX + owner.hex() + "/" + fileName + ".json";
    }

    /** What the limit counts, for messages ("unfinished jobs"). */
    public String counted() {
        return counted;
    }
}
