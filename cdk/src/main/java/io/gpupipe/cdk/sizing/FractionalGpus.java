package io.gpupipe.cdk.sizing;

import io.gpupipe.model.sizing.GpuShare;
import java.util.List;

/**
 * The instances a fractional GPU share runs on. The ECS docs ("Specifying GPUs in an Amazon ECS task definition",
 * docs.aws.amazon.com/AmazonECS/latest/developerguide/ecs-gpu-specifying.html): "When you specify a decimal value
 * such as 0.25, Amazon ECS places the task on a fractional GPU instance that provides the requested GPU capacity".
 * Those are the G6f instances: an NVIDIA L4 partitioned by vGPU into 1/8, 1/4 and 1/2 slices. A fractional task
 * therefore gets the slice's memory, not a share of whatever whole GPU a tier otherwise asks for, and only the
 * vCPUs and memory of the sizes that carry its slice.
 *
 * <p>The figures of {@link #SIZES}, found with the search tool (2026-12-01) in two independent public write-ups
 * that read them off running instances, agree with each other: the vGPU profile each size reports (g6f.large and
 * g6f.xlarge "NVIDIA L4-3Q", g6f.2xlarge "L4-6Q", g6f.4xlarge "L4-12Q"), and vCPU / memory / GPU memory per size
 * (2 / 8 GiB / 2,861 MiB; 4 / 16 GiB / 2,861 MiB; 8 / 32 GiB / 5,722 MiB; 16 / 64 GiB / 11,444 MiB), which is
 * exactly 1/8, 1/8, 1/4 and 1/2 of the 22,888 MiB EC2 reports for a whole L4 (g6). No AWS page with the G6f table was
 * among the stored docs; EC2's DescribeInstanceTypes ({@code GpuInfo}, {@code VCpuInfo}, {@code MemoryInfo}) is the
 * authority to re-check them against.
 */
public final class FractionalGpus {
    /** Memory EC2 reports for a whole L4 (g6 family), the GPU G6f partitions. */
    public static final long L4_MIB = 22_888;

    /** One G6f size: its GPU slice, vCPUs and memory. */
    public record G6fSize(String instanceType, String share, int vcpus, long memoryMiB) {
        /** The slice of the L4 this size's tasks may use. */
        public long gpuMemoryMiB() {
            return Math.round(L4_MIB * Double.parseDouble(share));
        }

        /** "g6f.xlarge (4 vCPU, 16 GiB)". */
        public String describe() {
            return instanceType + " (" + vcpus + " vCPU, " + memoryMiB / 1024 + " GiB)";
        }
    }

    /** Every G6f size, smallest first. */
    public static final List<G6fSize> SIZES = List.of(
            new G6fSize("g6f.large", "0.125", 2, 8 * 1024),
            new G6fSize("g6f.xlarge", "0.125", 4, 16 * 1024),
            new G6fSize("g6f.2xlarge", "0.25", 8, 32 * 1024),
            new G6fSize("g6f.4xlarge", "0.5", 16, 64 * 1024));

    private FractionalGpus() {
    }

    /** The G6f sizes whose GPU slice is exactly {@code share} ("0.125", "0.25", "0.5"). */
    public static List<G6fSize> sizes(GpuShare share) {
        String value = requireFraction(share).ecsValue();
        return SIZES.stream().filter(size -> size.share().equals(value)).toList();
    }

    /** The sizes of {@code share}'s slice with at least {@code vcpus} vCPUs and {@code memoryMiB} of memory. */
    public static List<G6fSize> sizesFitting(GpuShare share, int vcpus, long memoryMiB) {
        return sizes(share).stream().filter(size -> size.vcpus() >= vcpus && size.memoryMiB() >= memoryMiB).toList();
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
