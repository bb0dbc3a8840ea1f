package io.gpupipe.model.sizing;

import java.util.List;

/**
 * The instances a fractional GPU share runs on. The ECS docs ("Specifying GPUs in an Amazon ECS task definition",
 * docs.aws.amazon.com/AmazonECS/latest/developerguide/ecs-gpu-specifying.html): "When you specify a decimal value
 * such as 0.25, Amazon ECS places the task on a fractional GPU instance that provides the requested GPU capacity".
 * Those are the G6f instances: an NVIDIA L4 (24 GB) partitioned by vGPU into 1/8 (3 GB), 1/4 (6 GB) and 1/2 (12 GB)
 * slices; g6f.large/xlarge carry 1/8, g6f.2xlarge 1/4, g6f.4xlarge 1/2. A fractional task therefore gets the slice's
 * memory, not a share of whatever whole GPU a tier otherwise asks for.
 *
 * <p>Sources checked (2026-12-01, with the search tool): the ECS sentence above; the 1/8-of-an-L4 = 3 GB slice is
 * also how Cast AI's docs describe AWS's fractional L4s (docs.cast.ai/docs/gpu-sharing-fractional, third party). No
 * AWS page giving each G6f size's vCPUs, memory and slice could be found in the stored docs, so the size-to-slice
 * mapping of {@link #instanceTypes} is unverified; this class uses no vCPU or memory figure of G6f (a fractional
 * tier's task CPU and memory are the catalogue's, and attribute-based selection checks them against the instance).
 * EC2's {@code GpuDeviceInfo.gpuPartitionSize} (DescribeInstanceTypes) is the authority to re-check it against.
 */
public final class FractionalGpus {
    /** Memory EC2 reports for a whole L4 (g6 family), the GPU G6f partitions. */
    public static final long L4_MIB = 22_888;

    private FractionalGpus() {
    }

    /** The G6f sizes whose GPU slice is exactly {@code share} ("0.125", "0.25", "0.5"). */
    public static List<String> instanceTypes(GpuShare share) {
        return switch (requireFraction(share).ecsValue()) {
            case "0.125" -> List.of("g6f.large", "g6f.xlarge");
            case "0.25" -> List.of("g6f.2xlarge");
            case "0.5" -> List.of("g6f.4xlarge");
            default -> throw new IllegalArgumentException("not a fractional share: " + share.ecsValue());
        };
    }

    /** What a fractional task may use: its slice of one L4. */
    public static GpuBudget budget(GpuShare share) {
        return new GpuBudget(L4_MIB, requireFraction(share));
    }

    private static GpuShare requireFraction(GpuShare share) {
        if (!share.isFractional()) {
            throw new IllegalArgumentException("GPU share " + share.ecsValue() + " is whole GPUs, not a fraction");
        }
        return share;
    }
}
