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
 * and scaling figures; this class adds the model each tier serves. Text: Qwen2.5-7B-Instruct (AWQ) on one
 * L40S-class GPU and Qwen2.5-72B-Instruct (AWQ) on eight, in place of seed 001's TheBloke Mistral-7B / Llama-2-70B
 * AWQ repositories, for which no commit could be found to pin (docs/contracts.md, "Models"); speech: seed 000's
 * Qwen3-TTS 1.7B on one >= 20 GB GPU. GPU memory minima of the text tiers are 44 GiB, below the 48 GB nominal
 * size, because EC2 reports an L40S as about 45,000 MiB. The model repositories are native-build/models/*.env's
 * MODEL_REPO; their commits come from the same files through the {@code <tier>ModelRevision} context (no default:
 * synthesis refuses a tier without a pinned commit).
 */
public final class Tiers {
    /** What a tier serves: the sizing gate's footprint, the repository baked into its image, the image tag. */
    public record ServedModel(ModelFootprint footprint, String repository, String imageTag) {
    }

    /** The context every tier serves: vLLM's --max-model-len, and the sequence length of the sizing gate's KV cache. */
    static final int MAX_SEQUENCE_LENGTH = 4096;

    // served(name, parameters, bytes/parameter, layers, hidden size, KV heads, attention heads, concurrent sequences,
    //        Hugging Face repository, model-server image tag)
    private static final Map<String, ServedModel> MODELS = Map.of(
            // Qwen2.5-7B: 7.61 B parameters, 28 layers, hidden 3584, 4 KV of 28 heads (config.json). AWQ 4-bit
            // layers keep BF16 embeddings and an untied lm_head (152,064 x 3,584 each): the checkpoint is 5.19 GiB,
            // about 0.73 byte per parameter, not the 0.5 of INT4 alone.
            "small", served("qwen2.5-7b-instruct-awq", 7_610_000_000L, 0.73, 28, 3584, 4, 28, 32,
                    "Qwen/Qwen2.5-7B-Instruct-AWQ", "small-qwen2.5-7b-instruct-awq-1"),
            // Qwen2.5-72B: 72.7 B parameters, 80 layers, hidden 8192, 8 KV of 64 heads; the AWQ checkpoint pads the
            // MLP to 29,696 (= 8 x 29 x 128) so that tensor parallelism over 8 GPUs splits whole AWQ groups
            // (QwenLM/Qwen3-VL#230: 29,568 did not). Its 11 safetensors shards hold about 39 GB: ~0.575 byte/param.
            "large", served("qwen2.5-72b-instruct-awq", 72_700_000_000L, 0.575, 80, 8192, 8, 64, 64,
                    "Qwen/Qwen2.5-72B-Instruct-AWQ", "large-qwen2.5-72b-instruct-awq-1"),
            // Qwen3-TTS 1.7B in BF16: the talker (a Qwen3 1.7B-class decoder: 28 layers, hidden 2048, 8 KV of 16
            // heads), its code predictor and the 12 Hz codec are 4.2-4.5 GB on disk (public reports of the 1.7B
            // checkpoints), i.e. ~2.25 G parameters at 2 bytes. AWS runs it on "a single 24 GB GPU" (Deep Learning
            // Containers, vLLM-Omni EC2 deployment); the sizing gate checks this estimate against the 20 GiB floor.
            "speech", served("qwen3-tts-1.7b-customvoice", 2_250_000_000L, 2, 28, 2048, 8, 16, 8,
                    "Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice", "speech-qwen3-tts-1.7b-2"));

    private static ServedModel served(String name, long parameters, double bytesPerParameter, int layers,
                                      int hiddenSize, int kvHeads, int attentionHeads, int concurrentSequences,
                                      String repository, String imageTag) {
        return new ServedModel(ModelFootprint.builder(name)
                .parameters(parameters)
                .bytesPerParameter(bytesPerParameter)
                .layers(layers, hiddenSize)
                .groupedQueryAttention(kvHeads, attentionHeads)
                .maxSequenceLength(MAX_SEQUENCE_LENGTH)
                .maxConcurrentSequences(concurrentSequences)
                .build(), repository, imageTag);
    }

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
