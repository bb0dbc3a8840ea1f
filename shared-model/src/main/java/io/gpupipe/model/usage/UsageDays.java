package io.gpupipe.model.usage;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * When a day's usage stops changing. A record is written when its result's S3 event reaches the notifier; Lambda
 * keeps an asynchronous event (and retries it) for at most six hours by default (its maximum event age), so six hours
 * after a UTC day ended its records are all written and the day may be summarized once. A record that still arrives
 * later (an event redriven from the failure queue by hand) takes the day's summary back ({@link #isLate}).
 */
public final class UsageDays {
    /** Lambda's default maximum age of an asynchronous event: after it, no retried S3 event adds a record. */
    public static final Duration SETTLE_AFTER = Duration.ofHours(6);
    /** A record written this close to its day's settlement already counts as late (clocks of two functions). */
    static final Duration LATE_MARGIN = Duration.ofMinutes(10);

    private UsageDays() {
    }

    /** The UTC day of {@code instant}. */
    public static LocalDate dayOf(Instant instant) {
        return instant.atZone(ZoneOffset.UTC).toLocalDate();
    }

    /** The instant {@code day} starts (UTC). */
    public static Instant startOf(LocalDate day) {
        return day.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** True once {@code day} ended at least {@link #SETTLE_AFTER} before {@code now}: it may be summarized. */
    public static boolean isSettled(LocalDate day, Instant now) {
        return !now.isBefore(startOf(day.plusDays(1)).plus(SETTLE_AFTER));
    }

    /** True when a record of {@code day} written at {@code now} may come after the day's summary was made. */
    public static boolean isLate(LocalDate day, Instant now) {
        return isSettled(day, now.plus(LATE_MARGIN));
    }
}
