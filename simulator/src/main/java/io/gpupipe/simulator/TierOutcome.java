package io.gpupipe.simulator;

import java.util.List;

/**
 * What one tier did over a trace: each job's result time (NaN when never served), cost, instance-hours, how many
 * jobs a GPU ran (a Spot interruption can run one twice) and how many the result cache answered instead.
 */
record TierOutcome(SimulatedTier tier, List<Job> jobs, double[] resultAt, double cost, double instanceHours,
                   int spotInterruptions, Recording recording, int gpuRuns, int cacheHits) {
}
