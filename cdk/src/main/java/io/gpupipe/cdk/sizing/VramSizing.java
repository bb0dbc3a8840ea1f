package io.gpupipe.cdk.sizing;

import java.util.Locale;

/**
 * The VRAM sizing arithmetic of seeds 002/003: weights + KV cache + overhead must not exceed GPU memory × share.
 * KV cache = 2 (K and V) × layers × KV hidden size × max sequence length × max concurrent sequences × bytes per
 * value.
 */
public final class VramSizing {
    static final double MIB = 1024.0 * 1024;
    private static final double GIB = MIB * 1024;

    private VramSizing() {
    }

    public static VramEstimate estimate(ModelFootprint m) {
        long weights = Math.round(m.parameters() * m.bytesPerParameter());
        long kvCache = Math.round(2.0 * m.layers() * m.kvHiddenSize() * m.maxSequenceLength()
                * m.maxConcurrentSequences() * m.kvBytesPerValue());
        long overhead = m.fixedOverheadBytes() + Math.round((weights + kvCache) * m.overheadFraction());
        return new VramEstimate(weights, kvCache, overhead);
    }

    /** Checks {@code model} for {@code tier} against {@code budget}. */
    public static SizingVerdict check(String tier, ModelFootprint model, GpuBudget budget) {
        VramEstimate e = estimate(model);
        long available = budget.availableBytes();
        String needs = String.format(Locale.ROOT,
                "tier %s: %s needs %s GiB (weights %s + KV cache %s + overhead %s) and GPU share %s of %s GiB gives "
                        + "%s GiB",
                tier, model.model(), gib(e.totalBytes()), gib(e.weightsBytes()), gib(e.kvCacheBytes()),
                gib(e.overheadBytes()), budget.share().ecsValue(), gib(budget.gpuMemoryMiB() * MIB), gib(available));
        if (e.totalBytes() <= available) {
            return new SizingVerdict.Fits(e, available,
                    needs + String.format(Locale.ROOT, " (%s GiB headroom)", gib(available - e.totalBytes())));
        }
        return new SizingVerdict.TooLarge(e, available, needs
                + String.format(Locale.ROOT, " — short by %s GiB; ask for more GPUs (at least %d of this size), "
                        + "a smaller quantization, a shorter max sequence length or fewer concurrent sequences",
                        gib(e.totalBytes() - available), gpusNeeded(e.totalBytes(), budget.gpuMemoryMiB())));
    }

    private static long gpusNeeded(long bytes, long gpuMemoryMiB) {
        return (long) Math.ceil(bytes / (gpuMemoryMiB * MIB));
    }

    private static String gib(double bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / GIB);
    }
}
