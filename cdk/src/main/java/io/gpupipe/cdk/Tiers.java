package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import io.gpupipe.model.scaling.ScalingLadder;
import io.gpupipe.model.sizing.GpuShare;
import io.gpupipe.model.sizing.ModelFootprint;
import java.time.Duration;
import java.util.List;

/**
 * The default tiers of seed 001: Mistral-7B (AWQ) on one L40S-class GPU, Llama-2-70B (AWQ) on eight. GPU memory
 * minima are 44 GiB, below the 48 GB nominal size, because EC2 reports an L40S as about 45,000 MiB. The model
 * repositories are native-build/models/*.env's MODEL_REPO; their commits come from the same files through the
 * {@code <tier>ModelRevision} context (no default: synthesis refuses a tier without a pinned commit).
 */
public final class Tiers {
    static final long L40S_CLASS_MIB = 44 * 1024;

    private Tiers() {
    }

    public static List<TierSpec> defaults() {
        return List.of(small(), large());
    }

    public static TierSpec small() {
        ModelFootprint mistral = ModelFootprint.builder("mistral-7b-instruct-awq")
                .parameters(7_240_000_000L)
                .bytesPerParameter(0.5)
                .layers(32, 4096)
                .groupedQueryAttention(8, 32)
                .maxSequenceLength(4096)
                .maxConcurrentSequences(32)
                .build();
        ScalingLadder ladder = ScalingLadder.defaults(Tier.SMALL);
        return new TierSpec(Tier.SMALL, mistral, GpuShare.of("1"), L40S_CLASS_MIB, 3072, 24 * 1024,
                ladder.maxScaleOutStep(), "small-mistral-7b-awq-1", Duration.ofMinutes(10), ladder.scaleInAfter(),
                List.of(), "TheBloke/Mistral-7B-Instruct-v0.2-AWQ", null);
    }

    public static TierSpec large() {
        ModelFootprint llama = ModelFootprint.builder("llama-2-70b-chat-awq")
                .parameters(68_980_000_000L)
                .bytesPerParameter(0.5)
                .layers(80, 8192)
                .groupedQueryAttention(8, 64)
                .maxSequenceLength(4096)
                .maxConcurrentSequences(64)
                .build();
        ScalingLadder ladder = ScalingLadder.defaults(Tier.LARGE);
        return new TierSpec(Tier.LARGE, llama, GpuShare.of("8"), L40S_CLASS_MIB, 64 * 1024, 512 * 1024,
                ladder.maxScaleOutStep(), "large-llama-2-70b-awq-1", Duration.ofMinutes(20), ladder.scaleInAfter(),
                List.of(), "TheBloke/Llama-2-70B-Chat-AWQ", null);
    }
}
