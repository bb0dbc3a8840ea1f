package io.gpupipe.model.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Summing a caller's records into days, and days into an answer by day, tier or model, with estimated costs. */
class UsageReportTest {
    private static final LocalDate DEC_1 = LocalDate.parse("2026-12-01");
    private static final LocalDate DEC_2 = LocalDate.parse("2026-12-02");
    private static final UsageRange BOTH_DAYS = new UsageRange(DEC_1, DEC_2);
    private final CostEstimate costs = CostEstimate.of(TierCatalogue.bundled());

    private static String id(int n) {
        return String.format("00000000-0000-4000-8000-%012d", n);
    }

    private static UsageRecord ran(int n, LocalDate day, String tier, long prompt, long completion, long ms) {
        return new UsageRecord(id(n), day, JobStatus.SUCCEEDED, tier, tier + "-model", prompt, completion, ms, false);
    }

    private Map<LocalDate, DaySummary> twoDays() {
        return Map.of(
                DEC_1, DaySummary.of(DEC_1, List.of(ran(1, DEC_1, "small", 10, 20, 3_600_000),
                        ran(2, DEC_1, "large", 5, 5, 1_800_000),
                        new UsageRecord(id(3), DEC_1, JobStatus.SUCCEEDED, "small", "small-model", 0, 0, 0, true))),
                DEC_2, DaySummary.of(DEC_2, List.of(ran(4, DEC_2, "small", 1, 2, 1_000),
                        new UsageRecord(id(5), DEC_2, JobStatus.FAILED, null, null, 0, 0, 0, false))));
    }

    @Test
    void summary_shouldCountEachJobOnce_whenItsRecordIsSeenAgain() {
        UsageRecord once = ran(1, DEC_1, "small", 10, 20, 300);
        List<UsageRecord> seenTwice = new ArrayList<>(List.of(once, once, ran(2, DEC_1, "small", 1, 1, 100)));

        DaySummary summary = DaySummary.of(DEC_1, seenTwice);

        assertThat(summary.rows()).singleElement().satisfies(row -> {
            assertThat(row.tier()).isEqualTo("small");
            assertThat(row.totals()).isEqualTo(new UsageTotals(2, 0, 11, 21, 400, 0));
        });
    }

    @Test
    void report_shouldTotalEveryDay_withCostFromEachTiersPrice() {
        UsageReport report = UsageReport.of(BOTH_DAYS, Optional.empty(), twoDays(), costs);

        UsageReport.Line total = report.total();
        assertThat(total.jobs()).isEqualTo(new UsageReport.Jobs(4, 1, 5));
        assertThat(total.promptTokens()).isEqualTo(16);
        assertThat(total.completionTokens()).isEqualTo(27);
        assertThat(total.cacheHits()).isEqualTo(1);
        assertThat(total.inferenceSeconds()).isEqualByComparingTo("5401.000");
        // small: 1 GPU x 1.861 $/h x (1 h + 1 s); large: 8 GPUs x 3.766 $/h x 0.5 h
        BigDecimal small = new BigDecimal("1.861").multiply(new BigDecimal("3601")).divide(new BigDecimal("3600"),
                6, java.math.RoundingMode.HALF_UP);
        assertThat(total.estimatedCostUsd()).isEqualByComparingTo(small.add(new BigDecimal("15.064")));
        assertThat(report.groups()).isNull();
        assertThat(report.unpricedTiers()).isNull();
        assertThat(report.start()).isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
        assertThat(report.end()).isEqualTo(Instant.parse("2026-12-03T00:00:00Z"));
        assertThat(report.costBasis()).contains("estimate");
    }

    @Test
    void report_shouldBreakDownByDayTierOrModel_withJobsOfNoTierUnderNone() {
        UsageReport byDay = UsageReport.of(BOTH_DAYS, Optional.of(UsageGrouping.DAY), twoDays(), costs);
        UsageReport byTier = UsageReport.of(BOTH_DAYS, Optional.of(UsageGrouping.TIER), twoDays(), costs);
        UsageReport byModel = UsageReport.of(BOTH_DAYS, Optional.of(UsageGrouping.MODEL), twoDays(), costs);

        assertThat(byDay.groups()).extracting(UsageReport.Line::day).containsExactly("2026-12-01", "2026-12-02");
        assertThat(byDay.groups()).extracting(l -> l.jobs().total()).containsExactly(3L, 2L);
        assertThat(byTier.groups()).extracting(UsageReport.Line::tier).containsExactly("large", "none", "small");
        assertThat(byTier.groups()).extracting(l -> l.jobs().total()).containsExactly(1L, 1L, 3L);
        assertThat(byTier.groups().get(2).cacheHits()).isEqualTo(1);
        assertThat(byTier.groups().get(1).estimatedCostUsd()).isEqualByComparingTo("0");
        assertThat(byModel.groups()).extracting(UsageReport.Line::model).containsExactly("large-model", "none",
                "small-model");
        for (UsageReport report : List.of(byDay, byTier, byModel)) {
            assertThat(report.groups().stream().map(UsageReport.Line::estimatedCostUsd)
                    .reduce(BigDecimal.ZERO, BigDecimal::add)).isEqualByComparingTo(report.total().estimatedCostUsd());
            assertThat(report.groups().stream().mapToLong(l -> l.jobs().total()).sum()).isEqualTo(5);
        }
    }

    @Test
    void report_shouldLeaveOutDaysOutsideTheRange_andNameTiersWithoutAPrice() {
        UsageRange firstOnly = new UsageRange(DEC_1, DEC_1);
        Map<LocalDate, DaySummary> days = Map.of(DEC_1, DaySummary.of(DEC_1, List.of(ran(1, DEC_1, "retired", 1, 1,
                60_000))), DEC_2, twoDays().get(DEC_2));

        UsageReport report = UsageReport.of(firstOnly, Optional.empty(), days, costs);

        assertThat(report.total().jobs().total()).isEqualTo(1);
        assertThat(report.total().estimatedCostUsd()).isEqualByComparingTo("0");
        assertThat(report.unpricedTiers()).containsExactly("retired");
    }

    @Test
    void costEstimate_shouldChargeEveryGpuOfTheTierForTheInferenceTime() {
        assertThat(costs.usd("large", 3_600_000)).hasValueSatisfying(usd -> assertThat(usd)
                .isEqualByComparingTo("30.128"));
        assertThat(costs.usd("speech", 1_800_000)).hasValueSatisfying(usd -> assertThat(usd)
                .isEqualByComparingTo("0.4025"));
        assertThat(costs.usd(null, 1_000)).isEmpty();
        assertThat(TierCatalogue.bundled().gpuHourUsd(Tier.of("small"))).contains(1.861);
    }

    @Test
    void settlement_shouldComeSixHoursAfterTheUtcDayEnded() {
        assertThat(UsageDays.isSettled(DEC_1, Instant.parse("2026-12-02T05:59:59Z"))).isFalse();
        assertThat(UsageDays.isSettled(DEC_1, Instant.parse("2026-12-02T06:00:00Z"))).isTrue();
        assertThat(UsageDays.isLate(DEC_1, Instant.parse("2026-12-02T05:49:59Z"))).isFalse();
        assertThat(UsageDays.isLate(DEC_1, Instant.parse("2026-12-02T05:50:00Z"))).isTrue();
    }
}
