package io.gpupipe.jobs.port;

import io.gpupipe.model.owner.Owner;
import java.util.Optional;
import java.util.SortedSet;

/**
 * Each caller's slots of its limit on unfinished jobs ({@link io.gpupipe.jobs.quota.QuotaKind#slotKey}): one small
 * object per slot that a job holds, written create-only and removed only over the version its holder wrote, so no two
 * jobs ever hold one slot and no object is shared by a caller's concurrent submissions. Failures to reach the store
 * throw {@link StoreUnavailableException}.
 */
public interface JobSlots {
    /** Writes slot {@code number} only if it is free ({@code If-None-Match: *}): its ETag, or empty when taken. */
    Optional<String> claim(Owner owner, int number, SlotHolder holder);

    /**
     * The taken slots among {@code count} slots from {@code first} (one listing of keys, at most 1,000: S3's page).
     */
    SortedSet<Integer> taken(Owner owner, int first, int count);

    /** Slot {@code number}'s holder and ETag, or empty when it is free. */
    Optional<StoredSlot> read(Owner owner, int number);

    /** Frees slot {@code number} only if it is still the version {@code eTag} names; false when it changed or is free. */
    boolean free(Owner owner, int number, String eTag);

    /** A slot as read, with the ETag that makes a conditional free possible. */
    record StoredSlot(SlotHolder holder, String eTag) {
    }
}
