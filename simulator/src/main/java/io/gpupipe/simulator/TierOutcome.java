package io.gpupipe.simulator;

import java.util.List;

/** What one tier did over a trace: each job's result time (NaN when never served), cost, instance-hours. */
record TierOutcome(SimulatedTier tier, List<Job> jobs, double[] resultAt, double cost, double instanceHours,
                   int spotInterruptions, Recording recording) {
}
