package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.observability.JobMetrics;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.sizing.ModelFootprint;
import java.util.List;
import java.util.Map;

/**
 * The GPU side of each catalogue tier ({@code shared-model tiers.json}): the catalogue gives queue, GPUs, instance
 * and scaling figures; this class adds the model each tier serves. Seed 001's Mistral-7B (AWQ) on one L40S-class
 * GPU and Llama-2-70B (AWQ) on eight; seed 000's Qwen3-TTS 1.7B on one >= 20 GB GPU. GPU memory minima of the text
 * tiers are 44 GiB, below the 48 GB nominal size, because EC2 reports an L40S as about 45,000 MiB. The model
 * repositories are native-build/models/*.env's MODEL_REPO; their commits come from the same files through the
 * {@code <tier>ModelRevision} context (no default: synthesis refuses a tier without a pinned commit).
 */
public final class Tiers {
    /** What a tier serves: the sizing gate's footprint, the repository baked into its image, the image tag. */
    public record ServedModel(ModelFootprint footprint, String repository, String imageTag) {
    }

    private static final Map<String, ServedModel> MODELS = Map.of(
            "small", new ServedModel(ModelFootprint.builder("mistral-7b-instruct-awq")
                    .parameters(7_240_000_000L)
                    .bytesPerParameter(0.5)
                    .layers(32, 4096)
                    .groupedQueryAttention(8, 32)
                    .maxSequenceLength(4096)
                    .maxConcurrentSequences(32)
                    .build(), "TheBloke/Mistral-7B-Instruct-v0.2-AWQ", "small-mistral-7b-awq-1"),
            "large", new ServedModel(ModelFootprint.builder("llama-2-70b-chat-awq")
                    .parameters(68_980_000_000L)
                    .bytesPerParameter(0.5)
                    .layers(80, 8192)
                    .groupedQueryAttention(8, 64)
                    .maxSequenceLength(4096)
                    .maxConcurrentSequences(64)
                    .build(), "TheBloke/Llama-2-70B-Chat-AWQ", "large-llama-2-70b-awq-1"),
            // Qwen3-TTS 1.7B in BF16 (the talker: a Qwen3 1.7B-class decoder, 28 layers, hidden 2048, 8 KV of 16
            // heads) plus its 12 Hz codec; an estimate for the sizing gate, far below the tier's 20 GiB floor.
            "speech", new ServedModel(ModelFootprint.builder("qwen3-tts-1.7b-customvoice")
                    .parameters(1_900_000_000L)
                    .bytesPerParameter(2)
                    .layers(28, 2048)
                    .groupedQueryAttention(8, 16)
                    .maxSequenceLength(4096)
                    .maxConcurrentSequences(8)
                    .build(), "Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice", "speech-qwen3-tts-1.7b-1"));

    private Tiers() {
    }

    /** Every tier of the bundled catalogue, in its order. */
    public static List<TierSpec> defaults() {
        return TierCatalogue.bundled().tiers().stream().map(t -> spec(t, model(t.tier().wireName()))).toList();
    }

    public static TierSpec small() {
        return of("small");
    }

    public static TierSpec large() {
        return of("large");
    }

    public static TierSpec speech() {
        return of("speech");
    }

    /** The bundled catalogue's tier {@code name} with its model. */
    public static TierSpec of(String name) {
        return spec(TierCatalogue.bundled().get(Tier.of(name)), model(name));
    }

    /** The model a catalogue tier serves; a tier without one is a synthesis error naming this file. */
    public static ServedModel model(String tier) {
        ServedModel model = MODELS.get(tier);
        if (model == null) {
            throw new IllegalStateException("tier " + tier + " is in the catalogue but cdk Tiers.java names no model "
                    + "for it (add it to Tiers.MODELS and native-build/models/" + tier + ".env)");
        }
        return model;
    }

    /** A catalogue tier serving {@code model}. */
    public static TierSpec spec(TierDefinition tier, ServedModel model) {
        return new TierSpec(tier.tier(), model.footprint(), tier.gpus(), tier.gpuMemoryMiB(), tier.taskCpu(),
                tier.taskMemoryMiB(), tier.maxScaleOutStep(), model.imageTag(), tier.modelLoadGrace(),
                tier.scaleInAfter(), List.of(), model.repository(), null, tier.contract(),
                JobMetrics.p99SubmitToResultObjective(tier));
    }
}
