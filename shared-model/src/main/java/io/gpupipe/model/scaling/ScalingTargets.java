package io.gpupipe.model.scaling;

/**
 * A tier's scaling parameters: how many waiting messages one task should face ({@code backlogPerTask}, seed 001's
 * QueueDepthScaleThreshold), the GPU compute utilisation a task should run at ({@code gpuUtilizationPercent}), and
 * the most tasks the tier may run ({@code maxTasks}).
 */
public record ScalingTargets(double backlogPerTask, double gpuUtilizationPercent, int maxTasks) {
    /**
     * Default waiting jobs per task: 50, not seed 001's 5. Seed 001's workers take one job at a time; ours batch up to
     * 16 (14.2× the one-at-a-time throughput in the worker benchmark), so one task clears 50 queued jobs in well
     * under a minute, while another task needs ~7 minutes to start. With 5, the simulator's bursty traces started
     * 4–5× the GPU-hours for no latency gain (docs/simulator.md, "Findings").
     */
    public static final String DEFAULT_BACKLOG_PER_TASK = "50";

    public ScalingTargets {
        if (!(backlogPerTask > 0) || Double.isInfinite(backlogPerTask)) {
            throw new IllegalArgumentException("backlogPerTask must be > 0, got " + backlogPerTask);
        }
        if (!(gpuUtilizationPercent > 0) || gpuUtilizationPercent > 100) {
            throw new IllegalArgumentException("gpuUtilizationPercent must be in (0, 100], got "
                    + gpuUtilizationPercent);
        }
        if (maxTasks < 1) {
            throw new IllegalArgumentException("maxTasks must be >= 1, got " + maxTasks);
        }
    }
}
