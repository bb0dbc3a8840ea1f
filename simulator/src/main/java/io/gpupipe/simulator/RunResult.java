package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One trace under one policy, all tiers together. Latencies are submit → result in seconds; a job never served
 * before the horizon counts as infinitely late. Dollars per 1,000 jobs divide by the jobs actually served in time.
 *
 * @param firstJobSeconds the first arrival's submit → result time (infinite when never served)
 * @param lateJobs        jobs not served within the TTL (including never)
 * @param gpuRuns         jobs a GPU ran (model calls)
 * @param cacheHits       jobs the result cache answered
 * @param levers          the cold-start levers deployed with the policy
 * @param tiers           each simulated tier's own outcome
 */
public record RunResult(String trace, Policy policy, int jobs, double firstJobSeconds, double p50Seconds,
                        double p95Seconds, double p99Seconds, int lateJobs, double instanceHours, double cost,
                        double costPerThousandJobs, double costPerDay, int spotInterruptions, Recording recording,
                        int gpuRuns, int cacheHits, Set<Lever> levers, List<TierOutcome> tiers) {

    public RunResult {
        levers = levers.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(levers));
        tiers = List.copyOf(tiers);
    }

    /** The policy's label with its levers, e.g. {@code ours+wake+stream}. */
    public String label() {
        return policy.label() + Lever.suffix(levers);
    }

    /** {@code tier}'s outcome, if it was simulated. */
    Optional<TierOutcome> tier(Tier tier) {
        return tiers.stream().filter(t -> t.tier().equals(tier)).findFirst();
    }

    static RunResult of(Trace trace, Policy policy, Set<Lever> levers, Platform platform, List<TierOutcome> tiers) {
        List<double[]> pairs = new ArrayList<>();
        double cost = 0;
        double hours = 0;
        int interruptions = 0;
        int gpuRuns = 0;
        int cacheHits = 0;
        for (TierOutcome tier : tiers) {
            gpuRuns += tier.gpuRuns();
            cacheHits += tier.cacheHits();
            for (int i = 0; i < tier.jobs().size(); i++) {
                double result = tier.resultAt()[i];
                double arrival = tier.jobs().get(i).arrival();
                pairs.add(new double[] {arrival, Double.isNaN(result) ? Double.POSITIVE_INFINITY : result - arrival});
            }
            cost += tier.cost();
            hours += tier.instanceHours();
            interruptions += tier.spotInterruptions();
        }
        pairs.sort((a, b) -> Double.compare(a[0], b[0]));
        double[] latencies = pairs.stream().mapToDouble(p -> p[1]).sorted().toArray();
        double first = pairs.isEmpty() ? Double.NaN : pairs.get(0)[1];
        int late = (int) Arrays.stream(latencies).filter(l -> l > platform.ttlSeconds()).count();
        int served = latencies.length - late;
        double perThousand = served == 0 ? Double.POSITIVE_INFINITY : cost / served * 1000;
        return new RunResult(trace.name(), policy, latencies.length, first, percentile(latencies, 50),
                percentile(latencies, 95), percentile(latencies, 99), late, hours, cost, perThousand,
                cost / trace.days(), interruptions,
                Recording.sum(tiers.stream().map(TierOutcome::recording).toList()), gpuRuns, cacheHits, levers,
                tiers);
    }

    /** Nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
