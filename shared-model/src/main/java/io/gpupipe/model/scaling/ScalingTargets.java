package io.gpupipe.model.scaling;

/**
 * A tier's scaling parameters: how many waiting messages one task should face ({@code backlogPerTask}, seed 001's
 * QueueDepthScaleThreshold), the GPU compute utilisation a task should run at ({@code gpuUtilizationPercent}), and
 * the most tasks the tier may run ({@code maxTasks}).
 */
public record ScalingTargets(double backlogPerTask, double gpuUtilizationPercent, int maxTasks) {

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
