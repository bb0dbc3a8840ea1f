package io.gpupipe.router.internal;

import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageRange;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The optional monthly token budget of each caller ({@code gpupipe.router.usage.monthly-token-budget}; off unless
 * set): a submission is refused once the caller's prompt and completion tokens of the calendar month (UTC) reach it.
 * Counted from the usage records of finished jobs, read at most once per {@code refresh} per caller and router
 * instance, so it lags: by the jobs still queued or running, by the notifier's delay in writing a record (seconds),
 * and by up to {@code refresh}. A caller may therefore pass its budget by what it submits within that lag; nothing
 * is written on the submit path.
 */
public final class TokenBudget implements SubmissionBudget {
    private final long monthlyTokens;
    private final Duration refresh;
    private final BiFunction<Owner, UsageRange, Collection<DaySummary>> usage;
    private final Clock clock;
    private final Map<Owner, Counted> counted = new ConcurrentHashMap<>();

    /** A budget of {@code monthlyTokens} per caller, its use read through {@code usage} at most once per refresh. */
    public TokenBudget(long monthlyTokens, Duration refresh,
                       BiFunction<Owner, UsageRange, Collection<DaySummary>> usage, Clock clock) {
        if (monthlyTokens < 1) {
            throw new IllegalArgumentException("a monthly token budget is >= 1 token");
        }
        this.monthlyTokens = monthlyTokens;
        this.refresh = refresh;
        this.usage = usage;
        this.clock = clock;
    }

    /** Why {@code owner} may not submit now, if it has used its budget of this month. */
    @Override
    public Optional<SubmissionBudget.Exceeded> check(Owner owner) {
        if (!owner.isCaller()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        YearMonth month = YearMonth.from(now.atZone(ZoneOffset.UTC));
        Counted tokens = counted.compute(owner, (o, known) -> known != null && known.month().equals(month)
                && now.isBefore(known.at().plus(refresh)) ? known : new Counted(month, now, used(o, now)));
        if (tokens.tokens() < monthlyTokens) {
            return Optional.empty();
        }
        Instant nextMonth = month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        return Optional.of(new SubmissionBudget.Exceeded(monthlyTokens, tokens.tokens(), nextMonth,
                Duration.between(now, nextMonth)));
    }

    private long used(Owner owner, Instant now) {
        return usage.apply(owner, UsageRange.monthToDate(now)).stream().flatMap(d -> d.rows().stream())
                .mapToLong(row -> row.totals().tokens()).sum();
    }

    private record Counted(YearMonth month, Instant at, long tokens) {
    }
}
