package io.gpupipe.adapters;

import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageRecord;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/**
 * Callers' usage in the results bucket ({@link io.gpupipe.model.usage.UsageLayout}): one record per ended job, written
 * by the notifier, and one summary per settled day, written by the first usage query that needs it. Every method
 * throws {@link io.gpupipe.jobs.port.StoreUnavailableException} when S3 cannot be reached.
 */
public interface UsageStore {
    /** Writes {@code record} of {@code owner} if it is not there yet (a repeated event writes nothing). */
    void record(Owner owner, UsageRecord record);

    /** Every record of {@code owner}'s {@code day} (one listing per 1,000 records; no object is opened). */
    List<UsageRecord> records(Owner owner, LocalDate day);

    /** {@code owner}'s summary of {@code day}, if one was made. */
    Optional<DaySummary> summary(Owner owner, LocalDate day);

    /** Stores {@code summary} of {@code owner} unless one is there already (two queries agree on one). */
    void storeSummary(Owner owner, DaySummary summary);

    /** Takes back {@code owner}'s summary of {@code day}, if there is one: a record arrived after it was made. */
    void forgetSummary(Owner owner, LocalDate day);
}
