package io.gpupipe.cdk.sizing;

import io.gpupipe.model.sizing.GpuShare;
import java.util.Objects;

/**
 * GPU memory a task may use: the share it asks for of GPUs that have at least {@code gpuMemoryMiB} each (the
 * capacity provider's minimum, so the budget holds on every instance type it may pick).
 */
public record GpuBudget(long gpuMemoryMiB, GpuShare share) {
    public GpuBudget {
        Objects.requireNonNull(share, "share");
        if (gpuMemoryMiB < 1) {
            throw new IllegalArgumentException("gpuMemoryMiB must be >= 1, got " + gpuMemoryMiB);
        }
    }

    public long availableBytes() {
        return (long) (gpuMemoryMiB * VramSizing.MIB * share.gpus());
    }
}
