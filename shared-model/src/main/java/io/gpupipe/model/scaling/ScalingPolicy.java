package io.gpupipe.model.scaling;

import java.util.OptionalInt;

/**
 * The composite scaling metric: the number of tasks a tier should run. It replaces seed 001's
 * {@code max(visible / 5, gpuMemory / 80)}, which stays below the 1.0 scale-out threshold for 1–5 queued jobs, never
 * drops while vLLM holds its pre-allocated GPU memory, and ignores in-flight jobs. Rules, in order:
 * <ol>
 *   <li>nothing queued, delayed or in flight → 0 (the only way to reach 0);</li>
 *   <li>otherwise the largest of: {@code ceil(backlog / backlogPerTask)};
 *       {@code ceil(running × gpuUtil / targetGpuUtil)} when there is a GPU datapoint (missing data is no signal,
 *       not an idle GPU); {@code min(running, inFlight)}, the most tasks that can be holding an in-flight message
 *       (scaling in below it would stop a task mid-job); and 1, so the first job starts a task;</li>
 *   <li>clamped to the tier's {@code maxTasks};</li>
 *   <li>raised to a warm window's minimum when one is active ({@link #decide(ScalingInputs, ScalingTargets, int)}),
 *       so the scale-in and to-zero alarms do not fight the schedule.</li>
 * </ol>
 */
public final class ScalingPolicy {
    /** Guards against {@code ceil(2.0000000001) = 3} from floating-point noise. */
    private static final double EPSILON = 1e-9;

    private ScalingPolicy() {
    }

    /** The desired task count for {@code inputs} under {@code targets}. */
    public static ScalingDecision decide(ScalingInputs inputs, ScalingTargets targets) {
        OptionalInt byGpu = byGpu(inputs, targets);
        if (inputs.isIdle()) {
            return new ScalingDecision(0, 0, byGpu, 0, ScalingDecision.Reason.IDLE, false);
        }
        int byBacklog = ceilToInt(inputs.backlog() / targets.backlogPerTask());
        int busyFloor = (int) Math.min(inputs.running(), inputs.inFlight());

        int wanted = 1;
        ScalingDecision.Reason reason = ScalingDecision.Reason.FIRST_TASK;
        if (byBacklog >= wanted) {
            wanted = byBacklog;
            reason = ScalingDecision.Reason.BACKLOG;
        }
        if (byGpu.isPresent() && byGpu.getAsInt() > wanted) {
            wanted = byGpu.getAsInt();
            reason = ScalingDecision.Reason.GPU;
        }
        if (busyFloor > wanted) {
            wanted = busyFloor;
            reason = ScalingDecision.Reason.IN_FLIGHT;
        }
        boolean clamped = wanted > targets.maxTasks();
        return new ScalingDecision(Math.min(wanted, targets.maxTasks()), byBacklog, byGpu, busyFloor, reason,
                clamped);
    }

    /** As {@link #decide(ScalingInputs, ScalingTargets)}, but never below {@code minimumTasks} (a warm window). */
    public static ScalingDecision decide(ScalingInputs inputs, ScalingTargets targets, int minimumTasks) {
        if (minimumTasks < 0) {
            throw new IllegalArgumentException("minimumTasks must be >= 0, got " + minimumTasks);
        }
        ScalingDecision decision = decide(inputs, targets);
        int floor = Math.min(minimumTasks, targets.maxTasks());
        if (decision.desiredTasks() >= floor) {
            return decision;
        }
        return new ScalingDecision(floor, decision.byBacklog(), decision.byGpu(), decision.busyFloor(),
                ScalingDecision.Reason.WARM_MINIMUM, decision.clamped());
    }

    private static OptionalInt byGpu(ScalingInputs inputs, ScalingTargets targets) {
        if (inputs.gpuUtilization().isEmpty()) {
            return OptionalInt.empty();
        }
        double load = inputs.running() * inputs.gpuUtilization().getAsDouble() / targets.gpuUtilizationPercent();
        return OptionalInt.of(ceilToInt(load));
    }

    private static int ceilToInt(double value) {
        double ceiled = Math.ceil(value - EPSILON);
        return ceiled >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) Math.max(0, ceiled);
    }
}
