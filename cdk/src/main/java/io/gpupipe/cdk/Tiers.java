package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.observability.JobMetrics;
import java.nio.file.Path;
import java.util.List;

/**
 * The GPU side of each catalogue tier: the catalogue ({@code shared-model tiers.json}) gives queue, GPUs, instance and
 * scaling figures; the tier's {@code native-build/models/<tier>.env} ({@link ModelEnvFile}) gives the model it serves,
 * its pinned commit and the model-server image tag. This class names no tier: a new one is those two files.
 */
public final class Tiers {
    /** The context every tier serves: vLLM's --max-model-len, and the sequence length of the sizing gate's KV cache. */
    static final int MAX_SEQUENCE_LENGTH = 4096;

    private Tiers() {
    }

    /** Every tier of the bundled catalogue, in its order, with the model files of this repository. */
    public static List<TierSpec> defaults() {
        return of(TierCatalogue.bundled(), ModelEnvFile.locate());
    }

    /** Every tier of {@code catalogue} with its model from {@code modelsDirectory}/{@code <tier>.env}. */
    public static List<TierSpec> of(TierCatalogue catalogue, Path modelsDirectory) {
        return catalogue.tiers().stream()
                .map(t -> spec(t, ModelEnvFile.read(modelsDirectory, t.tier().wireName()))).toList();
    }

    /** The bundled catalogue's tier {@code name} with its model. */
    public static TierSpec of(String name) {
        return spec(TierCatalogue.bundled().get(Tier.of(name)), model(name));
    }

    /** The model a tier of this repository serves ({@code native-build/models/<tier>.env}). */
    public static ServedModel model(String tier) {
        return ModelEnvFile.read(ModelEnvFile.locate(), tier);
    }

    /** A catalogue tier serving {@code model}. */
    public static TierSpec spec(TierDefinition tier, ServedModel model) {
        return new TierSpec(tier.tier(), model.footprint(), tier.gpus(), tier.gpuMemoryMiB(), tier.taskCpu(),
                tier.taskMemoryMiB(), tier.maxScaleOutStep(), model.imageTag(), tier.modelLoadGrace(),
                tier.scaleInAfter(), model.instanceTypes(), model.repository(), model.revision(), tier.contract(),
                JobMetrics.p99SubmitToResultObjective(tier));
    }
}
