package io.gpupipe.jobs.quota;

import io.gpupipe.model.owner.Owner;
import java.util.Optional;

/**
 * The per-caller ledgers of unfinished work ({@link QuotaKind#ledgerKey}): created create-only and replaced only
 * over the version read, so concurrent admissions and releases of one caller are applied one at a time, none lost.
 * Failures to reach the store throw {@link io.gpupipe.jobs.port.StoreUnavailableException}.
 */
public interface QuotaLedgers {
    /** The ledger and its ETag, or empty when the caller has none yet. */
    Optional<StoredLedger> read(Owner owner, QuotaKind kind);

    /** Writes the ledger only if none exists: its ETag, or empty when one does. */
    Optional<String> create(Owner owner, QuotaKind kind, UnfinishedLedger ledger);

    /** Replaces the ledger only if it is still the version {@code eTag} names; false when it changed or is gone. */
    boolean replace(Owner owner, QuotaKind kind, UnfinishedLedger ledger, String eTag);

    /** A ledger as read, with the ETag that makes a conditional replace possible. */
    record StoredLedger(UnfinishedLedger ledger, String eTag) {
    }
}
