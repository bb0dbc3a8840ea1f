package io.gpupipe.model.usage;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One caller's usage of one UTC day, by tier and model: what every answer (by day, tier, model or in total) is summed
 * from. Built from the day's records, each job counted once by its stored id however many records name it (an
 * at-least-once event never counts twice); stored as the day's summary once the day is settled.
 */
public record DaySummary(LocalDate day, List<Row> rows) {
    private static final Comparator<Row> ROW_ORDER = Comparator.comparing(Row::tier,
            Comparator.nullsLast(Comparator.naturalOrder())).thenComparing(Row::model,
            Comparator.nullsLast(Comparator.naturalOrder()));

    /** Jobs of one tier and model. {@code tier} and {@code model} are null when the results named none. */
    public record Row(String tier, String model, UsageTotals totals) {
        public Row {
            Objects.requireNonNull(totals, "totals");
        }
    }

    public DaySummary {
        Objects.requireNonNull(day, "day");
        rows = List.copyOf(rows);
    }

    /** The summary of {@code day} from its records (records of other days are a caller's mistake: refused). */
    public static DaySummary of(LocalDate day, Collection<UsageRecord> records) {
        Map<String, UsageRecord> byJob = new TreeMap<>();
        for (UsageRecord record : records) {
            if (!record.day().equals(day)) {
                throw new IllegalArgumentException("record of " + record.day() + " in the summary of " + day);
            }
            byJob.putIfAbsent(record.storedId(), record);
        }
        Map<List<String>, UsageTotals> byGroup = new LinkedHashMap<>();
        for (UsageRecord record : byJob.values()) {
            byGroup.merge(Arrays.asList(record.tier(), record.model()), UsageTotals.of(record),
                    UsageTotals::plus);
        }
        List<Row> rows = byGroup.entrySet().stream().map(e -> new Row(e.getKey().get(0), e.getKey().get(1),
                e.getValue())).sorted(ROW_ORDER).toList();
        return new DaySummary(day, rows);
    }

    /** A day without any usage. */
    public static DaySummary empty(LocalDate day) {
        return new DaySummary(day, List.of());
    }
}
