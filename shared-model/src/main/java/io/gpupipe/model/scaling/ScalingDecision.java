package io.gpupipe.model.scaling;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The desired task count for a tier and how it was reached: the count each signal asked for ({@code byBacklog},
 * {@code byGpu} when there was GPU data, {@code busyFloor}), which one decided ({@code reason}) and whether the
 * tier's maximum cut it down ({@code clamped}).
 */
public record ScalingDecision(int desiredTasks, int byBacklog, OptionalInt byGpu, int busyFloor, Reason reason,
                              boolean clamped) {

    /** Which rule set the desired count. */
    public enum Reason {
        /** Nothing queued, delayed or in flight: scale to zero. */
        IDLE,
        /** Waiting messages divided by the backlog target. */
        BACKLOG,
        /** Running tasks' GPU load relative to the GPU target. */
        GPU,
        /** Tasks that may hold in-flight messages are kept. */
        IN_FLIGHT,
        /** Work exists but every signal asked for zero tasks: start one (scale from zero). */
        FIRST_TASK,
        /** A warm window's minimum task count is above what the work asks for. */
        WARM_MINIMUM
    }

    public ScalingDecision {
        Objects.requireNonNull(byGpu, "byGpu");
        Objects.requireNonNull(reason, "reason");
        if (desiredTasks < 0) {
            throw new IllegalArgumentException("desiredTasks must be >= 0, got " + desiredTasks);
        }
    }

    /** True when GPU data took part in the decision. */
    public boolean hadGpuSignal() {
        return byGpu.isPresent();
    }
}
