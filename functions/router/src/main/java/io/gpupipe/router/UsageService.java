package io.gpupipe.router;

import io.gpupipe.adapters.UsageStore;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.usage.CostEstimate;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageDays;
import io.gpupipe.model.usage.UsageQuery;
import io.gpupipe.model.usage.UsageRange;
import io.gpupipe.model.usage.UsageReport;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A caller's usage ({@code GET /v1/usage}) from its usage records: a settled day is read from its summary (one GET),
 * made from the day's records the first time it is needed (one listing per 1,000 records, one create-only PUT); an
 * unsettled day (today, and yesterday until six hours after midnight UTC) from its records. Days after today are not
 * read. Days are read {@link #PARALLEL_DAYS} at a time, so that the first question over 93 unsummarized days (about
 * 280 S3 calls) stays well inside the router's timeout. Only the caller's own prefix is ever listed or read: another
 * caller's usage is not addressable.
 */
public final class UsageService {
    /** Days read at once (S3 calls in flight per question). */
    static final int PARALLEL_DAYS = 8;
    private static final ExecutorService READERS = Executors.newFixedThreadPool(PARALLEL_DAYS, runnable -> {
        Thread thread = new Thread(runnable, "usage-reader");
        thread.setDaemon(true);
        return thread;
    });
    private final UsageStore store;
    private final CostEstimate costs;
    private final Clock clock;

    public UsageService(UsageStore store, CostEstimate costs, Clock clock) {
        this.store = store;
        this.costs = costs;
        this.clock = clock;
    }

    /** The outcome of a usage question. */
    public sealed interface Outcome {
        record Answered(UsageReport report) implements Outcome {
        }

        record Invalid(List<FieldError> errors) implements Outcome {
        }
    }

    /** Answers the raw parameters (null when absent) for {@code owner}. */
    public Outcome usage(Owner owner, String start, String end, String groupBy) {
        UsageQuery.Outcome query = UsageQuery.parse(start, end, groupBy, clock.instant());
        if (query instanceof UsageQuery.Outcome.Invalid invalid) {
            return new Outcome.Invalid(invalid.errors());
        }
        UsageQuery.Outcome.Valid valid = (UsageQuery.Outcome.Valid) query;
        return new Outcome.Answered(UsageReport.of(valid.range(), valid.grouping(), days(owner, valid.range()),
                costs));
    }

    /** {@code owner}'s usage of every day of {@code range} up to today. */
    Map<LocalDate, DaySummary> days(Owner owner, UsageRange range) {
        Instant now = clock.instant();
        LocalDate today = UsageDays.dayOf(now);
        Map<LocalDate, CompletableFuture<DaySummary>> reads = new LinkedHashMap<>();
        for (LocalDate day : range.days()) {
            if (day.isAfter(today)) {
                break;
            }
            reads.put(day, CompletableFuture.supplyAsync(() -> UsageDays.isSettled(day, now) ? settled(owner, day)
                    : DaySummary.of(day, store.records(owner, day)), READERS));
        }
        Map<LocalDate, DaySummary> days = new LinkedHashMap<>();
        reads.forEach((day, read) -> days.put(day, joined(read)));
        return days;
    }

    /** The read's summary; its own failure (a StoreUnavailableException: 503) as it was thrown. */
    private static DaySummary joined(CompletableFuture<DaySummary> read) {
        try {
            return read.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    private DaySummary settled(Owner owner, LocalDate day) {
        return store.summary(owner, day).orElseGet(() -> {
            DaySummary summary = DaySummary.of(day, store.records(owner, day));
            store.storeSummary(owner, summary);
            return summary;
        });
    }
}
