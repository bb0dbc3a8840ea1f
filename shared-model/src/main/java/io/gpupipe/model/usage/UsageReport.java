package io.gpupipe.model.usage;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A caller's usage answer: the totals of the range's days, and (with a grouping) one line per day, tier or model, each
 * with its estimated cost ({@link CostEstimate}). Days without usage have no line; jobs without a tier or model group
 * under {@link #NONE}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UsageReport(String object, Instant start, Instant end, String groupBy, Line total, List<Line> groups,
                          String costBasis, List<String> unpricedTiers) {
    /** The group of jobs whose results named no tier (or no model). */
    public static final String NONE = "none";

    /**
     * One line of the answer: its group ({@code day}, {@code tier} or {@code model}, by the grouping; none for the
     * total), jobs by status, tokens, inference seconds, cache hits and the estimated cost in US dollars.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Line(String day, String tier, String model, Jobs jobs, long promptTokens, long completionTokens,
                       BigDecimal inferenceSeconds, long cacheHits, BigDecimal estimatedCostUsd) {
    }

    /** Jobs by the status of their result. */
    public record Jobs(long succeeded, long failed, long total) {
    }

    /** The answer for {@code range} from its days' summaries (a day missing from {@code days} had no usage). */
    public static UsageReport of(UsageRange range, Optional<UsageGrouping> grouping, Map<LocalDate, DaySummary> days,
                                 CostEstimate costs) {
        Map<List<String>, Sum> groups = new LinkedHashMap<>();
        Sum total = new Sum();
        TreeSet<String> unpriced = new TreeSet<>();
        for (LocalDate day : range.days()) {
            for (DaySummary.Row row : days.getOrDefault(day, DaySummary.empty(day)).rows()) {
                Optional<BigDecimal> cost = costs.usd(row.tier(), row.totals().inferenceMs());
                if (cost.isEmpty() && row.totals().inferenceMs() > 0) {
                    unpriced.add(Objects.requireNonNullElse(row.tier(), NONE));
                }
                BigDecimal usd = cost.orElse(BigDecimal.ZERO);
                total.add(row.totals(), usd);
                grouping.ifPresent(g -> groups.computeIfAbsent(key(g, day, row), k -> new Sum()).add(row.totals(),
                        usd));
            }
        }
        List<Line> lines = grouping.map(g -> lines(g, groups)).orElse(null);
        return new UsageReport("usage", range.start(), range.end(), grouping.map(UsageGrouping::wireName)
                .orElse(null), total.line(null, null, null), lines, CostEstimate.BASIS,
                unpriced.isEmpty() ? null : List.copyOf(unpriced));
    }

    private static List<String> key(UsageGrouping grouping, LocalDate day, DaySummary.Row row) {
        String value = switch (grouping) {
            case DAY -> day.toString();
            case TIER -> row.tier();
            case MODEL -> row.model();
        };
        return Arrays.asList(grouping.wireName(), Objects.requireNonNullElse(value, NONE));
    }

    private static List<Line> lines(UsageGrouping grouping, Map<List<String>, Sum> groups) {
        List<Line> lines = new ArrayList<>();
        groups.entrySet().stream().sorted(Comparator.comparing(e -> e.getKey().get(1))).forEach(e -> {
            String value = e.getKey().get(1);
            lines.add(switch (grouping) {
                case DAY -> e.getValue().line(value, null, null);
                case TIER -> e.getValue().line(null, value, null);
                case MODEL -> e.getValue().line(null, null, value);
            });
        });
        return List.copyOf(lines);
    }

    /** A running sum of totals and cost. */
    private static final class Sum {
        private UsageTotals totals = UsageTotals.ZERO;
        private BigDecimal usd = BigDecimal.ZERO;

        void add(UsageTotals more, BigDecimal cost) {
            totals = totals.plus(more);
            usd = usd.add(cost);
        }

        Line line(String day, String tier, String model) {
            return new Line(day, tier, model, new Jobs(totals.succeeded(), totals.failed(), totals.jobs()),
                    totals.promptTokens(), totals.completionTokens(),
                    BigDecimal.valueOf(totals.inferenceMs(), 3), totals.cacheHits(), usd.setScale(6,
                    java.math.RoundingMode.HALF_UP));
        }
    }
}
