package io.gpupipe.model.scaling;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What the scaling metric sees of one tier at one tick: the SQS queue's visible, in-flight (received, not yet
 * deleted) and delayed message counts, the ECS service's running and desired task counts, and the service's GPU
 * compute utilisation in percent. An empty {@code gpuUtilization} means Container Insights had no datapoint: no
 * signal, which is not the same as an idle GPU.
 */
public record ScalingInputs(long visible, long inFlight, long delayed, int running, int desired,
                            OptionalDouble gpuUtilization) {

    public ScalingInputs {
        Objects.requireNonNull(gpuUtilization, "gpuUtilization");
        if (visible < 0 || inFlight < 0 || delayed < 0 || running < 0 || desired < 0) {
            throw new IllegalArgumentException("counts must be >= 0, got visible=" + visible + " inFlight=" + inFlight
                    + " delayed=" + delayed + " running=" + running + " desired=" + desired);
        }
        if (gpuUtilization.isPresent()
                && (Double.isNaN(gpuUtilization.getAsDouble()) || gpuUtilization.getAsDouble() < 0)) {
            throw new IllegalArgumentException("gpuUtilization must be a percentage >= 0, got " + gpuUtilization);
        }
    }

    /** Inputs without a GPU datapoint. */
    public static ScalingInputs withoutGpu(long visible, long inFlight, long delayed, int running, int desired) {
        return new ScalingInputs(visible, inFlight, delayed, running, desired, OptionalDouble.empty());
    }

    /** Inputs with a GPU datapoint (percent, 0–100). */
    public static ScalingInputs withGpu(long visible, long inFlight, long delayed, int running, int desired,
                                        double gpuUtilization) {
        return new ScalingInputs(visible, inFlight, delayed, running, desired, OptionalDouble.of(gpuUtilization));
    }

    /** Messages waiting for a worker: visible now or once their delay ends. */
    public long backlog() {
        return visible + delayed;
    }

    /** True when nothing is queued, delayed or being processed. */
    public boolean isIdle() {
        return backlog() == 0 && inFlight == 0;
    }
}
