package io.gpupipe.model.usage;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The parameters of a usage question ({@code GET /v1/usage?start=&end=&groupBy=}), validated: {@code start} (required)
 * and {@code end} (default: now) are ISO dates ({@code 2026-12-01}, that day's midnight UTC) or ISO timestamps with
 * an offset ({@code 2026-12-01T08:00:00Z}); {@code end} is after {@code start}; the range spans at most
 * {@link #MAX_DAYS} days; {@code groupBy} is one of {@link UsageGrouping} or absent. Usage is kept per UTC day, so the
 * answer covers the whole days from the day of {@code start} through the day of the last instant before {@code end}
 * (an exclusive end, as the range's answer shows).
 */
public final class UsageQuery {
    /** The longest range one question may cover: a quarter (three months of 31 days). */
    public static final int MAX_DAYS = 93;

    private UsageQuery() {
    }

    /** The outcome of {@link #parse}. */
    public sealed interface Outcome {
        /** A question to answer: its days and how to break them down (empty: one total). */
        record Valid(UsageRange range, Optional<UsageGrouping> grouping) implements Outcome {
        }

        /** Every problem found, each naming its parameter. */
        record Invalid(List<FieldError> errors) implements Outcome {
            public Invalid {
                errors = List.copyOf(errors);
            }
        }
    }

    /** Validates the raw query parameters (null when absent), {@code now} standing in for an absent {@code end}. */
    public static Outcome parse(String start, String end, String groupBy, Instant now) {
        List<FieldError> errors = new ArrayList<>();
        Optional<Instant> from = Optional.empty();
        if (start == null || start.isBlank()) {
            errors.add(new FieldError("start", ErrorCodes.REQUIRED, "start is required: an ISO date (2026-12-01) "
                    + "or timestamp (2026-12-01T08:00:00Z)"));
        } else {
            from = instant(start, "start", errors);
        }
        Optional<Instant> to = end == null ? Optional.of(now) : instant(end, "end", errors);
        Optional<UsageGrouping> grouping = Optional.empty();
        if (groupBy != null) {
            grouping = UsageGrouping.fromWireName(groupBy);
            if (grouping.isEmpty()) {
                errors.add(new FieldError("groupBy", ErrorCodes.INVALID_VALUE, "groupBy must be one of "
                        + UsageGrouping.describe()));
            }
        }
        if (from.isPresent() && to.isPresent()) {
            if (!to.get().isAfter(from.get())) {
                errors.add(new FieldError("end", ErrorCodes.OUT_OF_RANGE, "end must be after start"
                        + (end == null ? " (end defaults to now)" : "")));
            } else {
                UsageRange range = new UsageRange(UsageDays.dayOf(from.get()), UsageDays.dayOf(to.get().minusNanos(1)));
                if (range.length() > MAX_DAYS) {
                    errors.add(new FieldError("end", ErrorCodes.OUT_OF_RANGE, "the range from start to end spans "
                            + range.length() + " days; at most " + MAX_DAYS + " days per question"));
                }
                if (errors.isEmpty()) {
                    return new Outcome.Valid(range, grouping);
                }
            }
        }
        return new Outcome.Invalid(errors);
    }

    private static Optional<Instant> instant(String text, String field, List<FieldError> errors) {
        try {
            if (text.length() == "yyyy-mm-dd".length()) {
                return Optional.of(UsageDays.startOf(LocalDate.parse(text)));
            }
            return Optional.of(OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeException e) {
            errors.add(new FieldError(field, ErrorCodes.INVALID_FORMAT, field + " must be an ISO date (2026-12-01) "
                    + "or an ISO timestamp with an offset (2026-12-01T08:00:00Z)"));
            return Optional.empty();
        }
    }
}
