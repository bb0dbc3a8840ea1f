package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageRange;
import io.gpupipe.model.usage.UsageTotals;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The monthly token budget: refused from the month's counted tokens, read once per refresh, renewed each month. */
class TokenBudgetTest {
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://issuer", "alice"));
    private static final Duration REFRESH = Duration.ofSeconds(60);
    private final AtomicLong tokensUsed = new AtomicLong();
    private final List<UsageRange> reads = new ArrayList<>();
    private Instant now = Instant.parse("2026-12-31T23:58:00Z");

    private TokenBudget budget(long tokens) {
        return new TokenBudget(tokens, REFRESH, this::usage, new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now;
            }
        });
    }

    private Collection<DaySummary> usage(Owner owner, UsageRange range) {
        reads.add(range);
        LocalDate day = range.firstDay();
        return List.of(new DaySummary(day, List.of(new DaySummary.Row("small", "m", new UsageTotals(1, 0,
                tokensUsed.get() / 2, tokensUsed.get() - tokensUsed.get() / 2, 10, 0)))));
    }

    @Test
    void check_shouldRefuse_onceTheMonthsTokensReachTheBudget_untilTheNextMonth() {
        TokenBudget budget = budget(1_000);
        tokensUsed.set(999);
        assertThat(budget.check(ALICE)).isEmpty();

        tokensUsed.set(1_000);
        now = now.plus(REFRESH);
        SubmissionBudget.Exceeded exceeded = budget.check(ALICE).orElseThrow();

        assertThat(exceeded.budget()).isEqualTo(1_000);
        assertThat(exceeded.used()).isEqualTo(1_000);
        assertThat(exceeded.renewsAt()).isEqualTo(Instant.parse("2027-01-01T00:00:00Z"));
        assertThat(exceeded.retryAfter()).isEqualTo(Duration.ofSeconds(60));
        assertThat(reads).extracting(UsageRange::firstDay).containsOnly(LocalDate.parse("2026-12-01"));

        // the next month counts afresh, whatever the refresh
        tokensUsed.set(0);
        now = Instant.parse("2027-01-01T00:00:01Z");
        assertThat(budget.check(ALICE)).isEmpty();
        assertThat(reads.get(reads.size() - 1).firstDay()).isEqualTo(LocalDate.parse("2027-01-01"));
    }

    @Test
    void check_shouldReadTheCallersUsageOncePerRefresh() {
        TokenBudget budget = budget(1_000);

        budget.check(ALICE);
        now = now.plus(REFRESH.minusSeconds(1));
        budget.check(ALICE);
        assertThat(reads).hasSize(1);

        now = now.plusSeconds(1);
        budget.check(ALICE);
        assertThat(reads).hasSize(2);
    }

    @Test
    void check_shouldNeverLimitTheQueueOwner_andRefuseAnEmptyBudget() {
        tokensUsed.set(5_000);
        assertThat(budget(1).check(Owner.QUEUE)).isEmpty();
        assertThat(reads).isEmpty();
        assertThatThrownBy(() -> budget(0)).hasMessageContaining(">= 1");
        assertThat(SubmissionBudget.NONE.check(ALICE)).isEmpty();
    }
}
