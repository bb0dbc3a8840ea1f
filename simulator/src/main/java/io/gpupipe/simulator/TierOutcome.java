package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import java.util.List;

/**
 * What one tier did over a trace: each job's result time (NaN when never served), cost, instance-hours, how many
 * jobs a GPU ran (a Spot interruption can run one twice), how many the result cache answered instead, and the
 * timeline of its first cold start.
 */
record TierOutcome(Tier tier, List<Job> jobs, double[] resultAt, double cost, double instanceHours,
                   int spotInterruptions, Recording recording, int gpuRuns, int cacheHits,
                   ColdStartTimeline coldStart) {

    /** The tier's first arrival's submit → result time (infinite when never served, NaN without jobs). */
    double firstJobSeconds() {
        if (jobs.isEmpty()) {
            return Double.NaN;
        }
        return Double.isNaN(resultAt[0]) ? Double.POSITIVE_INFINITY : resultAt[0] - jobs.get(0).arrival();
    }

    /** Dollars per 1,000 jobs served within {@code ttlSeconds} (infinite when none was). */
    double costPerThousandJobs(double ttlSeconds) {
        long served = 0;
        for (int i = 0; i < jobs.size(); i++) {
            if (!Double.isNaN(resultAt[i]) && resultAt[i] - jobs.get(i).arrival() <= ttlSeconds) {
                served++;
            }
        }
        return served == 0 ? Double.POSITIVE_INFINITY : cost / served * 1000;
    }
}
