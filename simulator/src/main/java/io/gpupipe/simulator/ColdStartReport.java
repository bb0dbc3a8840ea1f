package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The cold-start comparison (docs/cold-start.md): the lone-job, five-job and bursty traces sent to each tier, under
 * the seeds' policies, ours today and ours with each lever and all of them: first-job latency and $/1,000 jobs per
 * tier; the first job's latency stage by stage; and whether the goals hold.
 */
final class ColdStartReport {
    /** The goals: first job from zero, per tier name (seconds). */
    static final Map<String, Double> GOAL_SECONDS = Map.of("small", 180.0, "large", 360.0);
    /** The goal's cost ceiling: ours with the levers may cost this much more per 1,000 bursty jobs than today. */
    static final double COST_CEILING = 1.10;
    static final List<String> TRACES = List.of("lone", "five", "bursts");

    /** One configuration compared: a policy and the levers deployed with it. */
    record Variant(Policy policy, Set<Lever> levers) {
        String label() {
            return policy.label() + Lever.suffix(levers);
        }
    }

    /** One tier's result under one variant on one trace. */
    record Row(String trace, Tier tier, Variant variant, TierOutcome outcome) {
    }

    private final Platform platform;
    private final List<Row> rows = new ArrayList<>();

    private ColdStartReport(Platform platform) {
        this.platform = platform;
    }

    /** The variants compared: seeds, ours, ours with each lever, ours with all. */
    static List<Variant> variants() {
        List<Variant> variants = new ArrayList<>();
        variants.add(new Variant(Policy.SEED_000, Set.of()));
        variants.add(new Variant(Policy.SEED_001, Set.of()));
        variants.add(new Variant(Policy.OURS, Set.of()));
        for (Lever lever : Lever.values()) {
            variants.add(new Variant(Policy.OURS, EnumSet.of(lever)));
        }
        variants.add(new Variant(Policy.OURS, Lever.all()));
        return variants;
    }

    /** Runs every variant on every trace for every tier with figures. */
    static ColdStartReport run(Platform platform, long seed) {
        ColdStartReport report = new ColdStartReport(platform);
        Simulator simulator = new Simulator(platform, seed);
        Map<String, Trace> traces = new LinkedHashMap<>();
        Traces.bundled(seed).stream().filter(t -> TRACES.contains(t.name())).forEach(t -> traces.put(t.name(), t));
        for (Trace trace : traces.values()) {
            for (Tier tier : platform.tiers().keySet()) {
                Trace onTier = trace.onTier(tier);
                for (Variant variant : variants()) {
                    RunResult result = simulator.run(onTier, variant.policy(), variant.levers());
                    report.rows.add(new Row(trace.name(), tier, variant, result.tier(tier).orElseThrow()));
                }
            }
        }
        return report;
    }

    List<Row> rows() {
        return List.copyOf(rows);
    }

    /** The row of {@code trace}, {@code tier} and the variant labelled {@code label}. */
    Row row(String trace, Tier tier, String label) {
        return rows.stream().filter(r -> r.trace().equals(trace) && r.tier().equals(tier)
                && r.variant().label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no row " + trace + "/" + tier + "/" + label));
    }

    /** The stages of the lone job's latency under {@code variant} on {@code tier}. */
    List<Stage.Span> stages(Tier tier, Variant variant) {
        return Stage.of(row("lone", tier, variant.label()).outcome(),
                new ColdStart(platform, tier, variant.levers()));
    }

    /** Markdown: the budget per tier, the comparison, the goal check. */
    String markdown() {
        StringBuilder out = new StringBuilder();
        Variant today = new Variant(Policy.OURS, Set.of());
        Variant all = new Variant(Policy.OURS, Lever.all());
        for (Tier tier : platform.tiers().keySet()) {
            TierFigures figures = platform.tier(tier);
            out.append("### ").append(tier).append(" tier (").append(figures.instanceType()).append(")\n\n");
            out.append("| stage | ours today (s) | ours+all levers (s) | figures and sources |\n|---|---:|---:|---|\n");
            List<Stage.Span> before = stages(tier, today);
            List<Stage.Span> after = stages(tier, all);
            for (int i = 0; i < before.size(); i++) {
                out.append("| ").append(before.get(i).stage().label()).append(" | ")
                        .append(seconds(before.get(i).seconds())).append(" | ").append(seconds(after.get(i).seconds()))
                        .append(" | ").append(before.get(i).stage().source(platform, tier)).append(" |\n");
            }
            out.append("| **first job** | **").append(Report.duration(sum(before))).append("** | **")
                    .append(Report.duration(sum(after))).append("** | submit → result of the lone job |\n\n");
        }
        out.append(comparison());
        out.append('\n').append(goals());
        return out.toString();
    }

    /** Trace × variant: first-job latency and $/1,000 jobs per tier. */
    String comparison() {
        List<Tier> tiers = List.copyOf(platform.tiers().keySet());
        StringBuilder out = new StringBuilder("| trace | policy");
        StringBuilder rule = new StringBuilder("|---|---");
        for (Tier tier : tiers) {
            out.append(" | ").append(tier).append(" first job | ").append(tier).append(" $/1k jobs");
            rule.append("|---:|---:");
        }
        out.append(" |\n").append(rule).append("|\n");
        for (String trace : TRACES) {
            for (Variant variant : variants()) {
                out.append("| ").append(trace).append(" | ").append(variant.label());
                for (Tier tier : tiers) {
                    TierOutcome outcome = row(trace, tier, variant.label()).outcome();
                    out.append(" | ").append(Report.duration(outcome.firstJobSeconds())).append(" | ")
                            .append(Report.money(outcome.costPerThousandJobs(platform.ttlSeconds())));
                }
                out.append(" |\n");
            }
        }
        return out.toString();
    }

    /** Whether ours with every lever meets the goals: first job from zero, and the bursty trace's cost. */
    String goals() {
        StringBuilder out = new StringBuilder();
        String all = new Variant(Policy.OURS, Lever.all()).label();
        for (Tier tier : platform.tiers().keySet()) {
            Double goal = GOAL_SECONDS.get(tier.wireName());
            double first = row("lone", tier, all).outcome().firstJobSeconds();
            double today = row("bursts", tier, "ours").outcome().costPerThousandJobs(platform.ttlSeconds());
            double levers = row("bursts", tier, all).outcome().costPerThousandJobs(platform.ttlSeconds());
            out.append(String.format(Locale.ROOT, "- %s: first job from zero %s%s; bursty trace $%.2f per 1,000 jobs "
                            + "vs $%.2f today (%+.1f %%, ceiling +%.0f %%): %s%n", tier, Report.duration(first),
                    goal == null ? "" : " (goal " + Report.duration(goal) + ": " + (first <= goal ? "met" : "NOT met")
                            + ")", levers, today, 100 * (levers / today - 1), 100 * (COST_CEILING - 1),
                    levers <= today * COST_CEILING ? "met" : "NOT met"));
        }
        return out.toString();
    }

    private static double sum(List<Stage.Span> spans) {
        return spans.stream().mapToDouble(Stage.Span::seconds).sum();
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.0f", s);
    }
}
