package io.gpupipe.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * Seed 001: a Lambda publishes {@code max(visible / 5, gpuMemory / 80)} every minute; metric > 1.0 adds one task
 * (60 s cooldown, assumed); metric < 1.0 for 5 datapoints (small tier) scales to 0. vLLM pre-allocates ~90 % of GPU
 * memory at start-up, so a running task keeps the metric at 90 / 80 = 1.125: once it has a task the tier keeps
 * adding tasks up to its maximum and never scales in. One job at a time.
 */
final class Seed001Scaler implements Scaler {
    private static final double THRESHOLD = 1.0;
    private static final double GPU_MEMORY_TARGET = 80;
    private static final double SCALE_OUT_COOLDOWN = 60;
    private final ScalableTarget sim;
    private static final int KEEP = 32;
    private final List<double[]> datapoints = new ArrayList<>();
    private double outCooldownUntil = Double.NEGATIVE_INFINITY;

    Seed001Scaler(ScalableTarget sim) {
        this.sim = sim;
    }

    @Override
    public void tick(double t) {
        List<double[]> seen = datapoints.stream()
                .filter(d -> d[0] <= t - sim.platform().alarmDelaySeconds()).toList();
        if (!seen.isEmpty()) {
            if (seen.get(seen.size() - 1)[1] > THRESHOLD && t >= outCooldownUntil) {
                sim.setDesired(sim.desired() + 1);
                outCooldownUntil = t + SCALE_OUT_COOLDOWN;
            }
            int n = sim.platform().seed001ScaleInMinutes();
            if (seen.size() >= n && sim.desired() > 0
                    && seen.subList(seen.size() - n, seen.size()).stream().allMatch(d -> d[1] < THRESHOLD)) {
                sim.setDesired(0);
            }
        }
        double gpuMemory = sim.runningTasks() > 0 ? sim.platform().seed001GpuMemoryPercent() : 0;
        double metric = Math.max(sim.visible() / sim.platform().seed001Threshold(), gpuMemory / GPU_MEMORY_TARGET);
        datapoints.add(new double[] {t, metric});
        trim();
    }

    /** Alarms look back a few periods only. */
    private void trim() {
        if (datapoints.size() > KEEP) {
            datapoints.remove(0);
        }
    }
}
