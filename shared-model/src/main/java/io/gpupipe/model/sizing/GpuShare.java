package io.gpupipe.model.sizing;

import java.util.List;
import java.util.Objects;

/**
 * How much GPU one task asks for, exactly as ECS takes it in a container's {@code resourceRequirements}: one of the
 * fractions "0.125", "0.25", "0.5" (fractional GPU scheduling) or a whole number of GPUs "1" to "16".
 */
public record GpuShare(String ecsValue) {
    /** The only fractional values ECS accepts; "0.250" or 0.25 as a number are not the same thing. */
    public static final List<String> FRACTIONS = List.of("0.125", "0.25", "0.5");
    public static final int MAX_WHOLE_GPUS = 16;

    public GpuShare {
        Objects.requireNonNull(ecsValue, "ecsValue");
        if (!FRACTIONS.contains(ecsValue) && wholeCount(ecsValue) < 1) {
            throw new IllegalArgumentException("GPU share must be exactly one of " + FRACTIONS
                    + " or a whole number of GPUs 1-" + MAX_WHOLE_GPUS + ", got \"" + ecsValue + "\"");
        }
    }

    public static GpuShare of(String ecsValue) {
        return new GpuShare(ecsValue);
    }

    public static GpuShare wholeGpus(int count) {
        return new GpuShare(Integer.toString(count));
    }

    /** True for "0.125", "0.25" and "0.5". */
    public boolean isFractional() {
        return FRACTIONS.contains(ecsValue);
    }

    /** GPUs as a number: 0.125 … 16. */
    public double gpus() {
        return isFractional() ? Double.parseDouble(ecsValue) : wholeCount(ecsValue);
    }

    /** Whole GPUs the task spans (1 for a fraction): the tensor-parallel size of the model server. */
    public int devices() {
        return isFractional() ? 1 : wholeCount(ecsValue);
    }

    private static int wholeCount(String value) {
        boolean digitsOnly = !value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9');
        if (!digitsOnly || value.length() > 2 || value.charAt(0) == '0') {
            return -1;
        }
        int count = Integer.parseInt(value);
        return count <= MAX_WHOLE_GPUS ? count : -1;
    }
}
