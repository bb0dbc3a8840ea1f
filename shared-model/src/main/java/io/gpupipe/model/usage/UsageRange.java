package io.gpupipe.model.usage;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/** The whole UTC days a usage answer covers, first to last inclusive. */
public record UsageRange(LocalDate firstDay, LocalDate lastDay) {
    public UsageRange {
        Objects.requireNonNull(firstDay, "firstDay");
        Objects.requireNonNull(lastDay, "lastDay");
        if (lastDay.isBefore(firstDay)) {
            throw new IllegalArgumentException("a range's last day is not before its first");
        }
    }

    /** The calendar month (UTC) of {@code now}, from its first day to today. */
    public static UsageRange monthToDate(Instant now) {
        LocalDate today = UsageDays.dayOf(now);
        return new UsageRange(YearMonth.from(today).atDay(1), today);
    }

    /** Where the range starts: its first day's midnight, UTC. */
    public Instant start() {
        return UsageDays.startOf(firstDay);
    }

    /** Where it ends (exclusive): the midnight after its last day, UTC. */
    public Instant end() {
        return lastDay.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** Every day of the range, in order. */
    public List<LocalDate> days() {
        return Stream.iterate(firstDay, d -> !d.isAfter(lastDay), d -> d.plusDays(1)).toList();
    }

    /** How many days the range has. */
    public long length() {
        return lastDay.toEpochDay() - firstDay.toEpochDay() + 1;
    }
}
