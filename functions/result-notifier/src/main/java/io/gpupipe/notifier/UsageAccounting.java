package io.gpupipe.notifier;

import io.gpupipe.adapters.UsageStore;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.usage.UsageDays;
import io.gpupipe.model.usage.UsageRecord;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;

/**
 * The notifier's part in callers' usage: every result it sees (a worker's, a dead letter's, a cache hit, a batch
 * line's) becomes one usage record of the job's caller, written create-only under a key of the job's stored id and
 * the result's own fields, so a repeated or retried event writes nothing new. One S3 PUT per result, no read, and
 * no object shared by two jobs: nothing on the result path waits for another job. A record that arrives after its
 * day was settled ({@link UsageDays#isLate}) also takes back that day's summary, which the next query recomputes.
 */
@ApplicationScoped
public class UsageAccounting {
    private final Function<String, UsageStore> stores;
    private final Clock clock;

    UsageAccounting(Stores stores, Clock clock) {
        this.stores = stores;
        this.clock = clock;
    }

    /** The usage store in a given results bucket (the bucket of the S3 event being handled). */
    @FunctionalInterface
    public interface Stores extends Function<String, UsageStore> {
    }

    /** Counts {@code result} in its caller's usage; a job of no caller (sent straight to a queue) counts nowhere. */
    public void ended(String bucket, JobResult result) {
        Optional<UsageRecord> record = UsageRecord.of(result);
        if (record.isEmpty()) {
            return;
        }
        Owner owner = new Owner(result.owner());
        UsageStore store = stores.apply(bucket);
        store.record(owner, record.get());
        if (UsageDays.isLate(record.get().day(), clock.instant())) {
            store.forgetSummary(owner, record.get().day());
        }
    }
}
