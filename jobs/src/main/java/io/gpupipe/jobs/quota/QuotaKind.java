package io.gpupipe.jobs.quota;

import io.gpupipe.model.owner.Owner;

/**
 * What a per-caller limit counts: unfinished jobs submitted over the API, each holding one slot object
 * {@code quotas/{owner hash}/jobs/slots/{n}} ({@link JobSlotQuota}); unfinished batches, in one ledger object
 * {@code quotas/{owner hash}/batches.json} ({@link OwnerQuotas}); and the lines of unfinished batches, in the ledger
 * {@code quotas/{owner hash}/batch-lines.json} whose entries weigh their batch's line count ({@link BatchLinesQuota}).
 * A batch's lines count against the last two, not against the jobs limit.
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

    /** Where {@code owner}'s slots of this kind are: the prefix listed to find the free ones. */
    public String slotPrefix(Owner owner) {
        return PREFIX + owner.hex() + "/" + fileName + "/slots/";
    }

    /**
     * The key of {@code owner}'s slot {@code number}, zero-padded so that keys list in slot order (a listing that
     * starts after one slot's key reads the slots that follow it).
     */
    public String slotKey(Owner owner, int number) {
        return slotPrefix(owner) + String.format(java.util.Locale.ROOT, "%010d", number);
    }

    /** The slot number of a key under {@link #slotPrefix}, or -1 when it is not a slot's key. */
    public static int slotNumber(String key) {
        String last = key.substring(key.lastIndexOf('/') + 1);
        if (last.length() != 10 || !last.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        long number = Long.parseLong(last);
        return number > Integer.MAX_VALUE ? -1 : (int) number;
    }

    /** What the limit counts, for messages ("unfinished jobs"). */
    public String counted() {
        return counted;
    }
}
