package io.gpupipe.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000: a CloudWatch alarm on AWS/SQS ApproximateNumberOfMessagesVisible (1-minute datapoints that reach the
 * alarm {@code sqsMetricLagSeconds} later) sets the desired count to 1 when ≥ 1; 5 consecutive datapoints of 0 set
 * it to 0. At most one task, one job at a time.
 */
final class Seed000Scaler implements Scaler {
    private final ScalableTarget sim;
    private static final int KEEP = 32;
    private final List<double[]> datapoints = new ArrayList<>();

    Seed000Scaler(ScalableTarget sim) {
        this.sim = sim;
    }

    @Override
    public void tick(double t) {
        if (t > 0) {
            datapoints.add(new double[] {t, sim.maxVisibleThisPeriod()});
            trim();
        }
        List<double[]> seen = datapoints.stream()
                .filter(d -> d[0] <= t - sim.platform().sqsMetricLagSeconds()).toList();
        if (seen.isEmpty()) {
            return;
        }
        if (seen.get(seen.size() - 1)[1] >= 1 && sim.desired() < 1) {
            sim.setDesired(1);
        }
        int idle = sim.platform().seed000IdleMinutes();
        if (seen.size() >= idle && sim.desired() > 0
                && seen.subList(seen.size() - idle, seen.size()).stream().allMatch(d -> d[1] == 0)) {
            sim.setDesired(0);
        }
    }

    /** Alarms look back a few periods only. */
    private void trim() {
        if (datapoints.size() > KEEP) {
            datapoints.remove(0);
        }
    }
}
