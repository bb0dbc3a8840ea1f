package io.gpupipe.cdk;

import io.gpupipe.model.ModelServerContract;
import io.gpupipe.model.Tier;
import io.gpupipe.model.serving.ModelServerHealthCheck;
import io.gpupipe.model.serving.ModelVersion;
import io.gpupipe.cdk.sizing.FractionalGpus;
import io.gpupipe.cdk.sizing.GpuBudget;
import io.gpupipe.model.sizing.GpuShare;
import io.gpupipe.cdk.sizing.ModelFootprint;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Everything the GPU side needs to know about one tier: the model it serves (for the VRAM sizing gate and the model
 * server's flags), the GPU share each task asks for, the instances the capacity provider may pick, and scaling.
 *
 * @param gpuMemoryMiB     minimum memory of each GPU the capacity provider may pick; also the sizing budget
 * @param taskCpu          task CPU units (1024 = 1 vCPU); instances need at least this plus the agent's share
 * @param taskMemoryMiB    task memory; instances need at least this plus the agent's share
 * @param maxScaleOutStep the most tasks one scale-out adds (the gap is added at once up to this); the tier's
 *                        ceiling is the SAM stack's SmallMaxTasks/LargeMaxTasks, which the scaling metric uses too
 * @param modelLoadGrace   longest expected model load (image already pulled): the model server's health check
 *                         tolerates failures this long before the task is replaced
 * @param scaleInAfter     how long a tier must want fewer tasks before one is removed
 * @param modelRepository  the Hugging Face repository the model-server image bakes in (native-build/models/*.env)
 * @param modelRevision    the commit of that repository the weights were built from (40 hex; synth refuses others)
 * @param contract         which API the model server speaks (vLLM text, or vLLM-Omni speech)
 * @param allowedInstanceTypes EC2 instance types or patterns the capacity provider may pick among those matching the
 *                        GPU attributes (native-build/models/{@code <tier>}.env INSTANCE_TYPES); empty means
 *                        {@link #G_FAMILIES}. Attributes alone also match P-family instances (another quota, several
 *                        times the price), so a list always applies
 * @param p99SubmitToResult the p99 submit-to-result latency the tier is alarmed above (shared-model JobMetrics)
 */
public record TierSpec(
        Tier tier,
        ModelFootprint model,
        GpuShare gpuShare,
        long gpuMemoryMiB,
        int taskCpu,
        int taskMemoryMiB,
        int maxScaleOutStep,
        String modelServerImageTag,
        Duration modelLoadGrace,
        Duration scaleInAfter,
        List<String> allowedInstanceTypes,
        String modelRepository,
        String modelRevision,
        ModelServerContract contract,
        Duration p99SubmitToResult) {

    /**
     * The x86 NVIDIA G families (On-Demand quota "Running On-Demand G and VT instances", L-DB2E81BA): what a tier may
     * run on when its model file names no INSTANCE_TYPES. The GPU attributes pick the sizes within them.
     */
    public static final List<String> G_FAMILIES = List.of("g4dn.*", "g5.*", "g6.*", "g6e.*", "gr6.*");

    public TierSpec {
        Objects.requireNonNull(tier, "tier");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(gpuShare, "gpuShare");
        Objects.requireNonNull(modelServerImageTag, "modelServerImageTag");
        Objects.requireNonNull(modelLoadGrace, "modelLoadGrace");
        Objects.requireNonNull(scaleInAfter, "scaleInAfter");
        Objects.requireNonNull(modelRepository, "modelRepository");
        Objects.requireNonNull(contract, "contract");
        allowedInstanceTypes = allowedInstanceTypes.isEmpty() ? G_FAMILIES : List.copyOf(allowedInstanceTypes);
        for (String type : allowedInstanceTypes) {
            if (type.isBlank() || type.startsWith("*")) {
                throw new IllegalArgumentException("tier " + tier.wireName() + ": INSTANCE_TYPES entries name a family "
                        + "(g6e.*) or a type (g6e.xlarge), got '" + type + "'");
            }
        }
        if (maxScaleOutStep < 1) {
            throw new IllegalArgumentException("tier " + tier.wireName() + ": maxScaleOutStep must be >= 1, got "
                    + maxScaleOutStep);
        }
        if (taskCpu < 256 || taskMemoryMiB < 512) {
            throw new IllegalArgumentException("tier " + tier.wireName()
                    + ": task needs >= 256 CPU units and >= 512 MiB");
        }
        if (modelLoadGrace.toSeconds() < 60 || modelLoadGrace.compareTo(ModelServerHealthCheck.MAX_MODEL_LOAD) > 0) {
            throw new IllegalArgumentException("tier " + tier.wireName() + ": modelLoadGrace must be 1-55 minutes "
                    + "(ECS health checks: start period <= 300 s, then <= 10 retries of <= 300 s), got "
                    + modelLoadGrace);
        }
        if (scaleInAfter.toMinutes() < 1) {
            throw new IllegalArgumentException("tier " + tier.wireName() + ": scaleInAfter must be >= 1 minute");
        }
    }

    /** True when {@code instanceType} (e.g. g6e.xlarge) matches one of the tier's allowed types or families. */
    public boolean allowsInstanceType(String instanceType) {
        return allowedInstanceTypes.stream().anyMatch(pattern -> instanceType.matches(
                Pattern.quote(pattern).replace("*", "\\E.*\\Q")));
    }

    /** What the sizing gate checks the model against: a fraction gets its G6f slice, whole GPUs their minimum. */
    public GpuBudget budget() {
        return gpuShare.isFractional() ? FractionalGpus.budget(gpuShare) : new GpuBudget(gpuMemoryMiB, gpuShare);
    }

    /** Minimum memory of all the instance's GPUs together (EC2 attribute-based selection counts the sum). */
    public long acceleratorTotalMemoryMiB() {
        return gpuMemoryMiB * gpuShare.devices();
    }

    /** The exact weights this tier serves; fails with a readable message unless the revision is a commit. */
    public ModelVersion modelVersion() {
        try {
            return new ModelVersion(modelRepository, modelRevision, modelServerImageTag);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("tier " + tier.wireName() + ": " + e.getMessage() + "; pass -c "
                    + tier.wireName() + "ModelRevision=<commit> (the MODEL_REVISION the image was built with)", e);
        }
    }

    /** The vLLM OpenAI image (unpacked) the model-server image starts from, before the weights are added. */
    static final long VLLM_IMAGE_GIB = 20;

    /**
     * Instance storage for the tier's task: while ECS pulls the model-server image, its compressed layers and the
     * unpacked copy are on disk at once (weights barely compress), so twice the image plus 20 % and the worker
     * image; never below Managed Instances' 80 GiB default.
     */
    public long taskStorageGiB() {
        double weightsGiB = model.parameters() * model.bytesPerParameter() / (1024.0 * 1024 * 1024);
        long needed = (long) Math.ceil((VLLM_IMAGE_GIB + weightsGiB) * 2 * 1.2) + 2;
        return Math.max(80, needed);
    }

    public TierSpec withModel(ModelFootprint newModel, GpuShare newShare) {
        return new TierSpec(tier, newModel, newShare, gpuMemoryMiB, taskCpu, taskMemoryMiB, maxScaleOutStep,
                modelServerImageTag, modelLoadGrace, scaleInAfter, allowedInstanceTypes, modelRepository,
                modelRevision, contract, p99SubmitToResult);
    }

    public TierSpec withModelServerImageTag(String tag) {
        return new TierSpec(tier, model, gpuShare, gpuMemoryMiB, taskCpu, taskMemoryMiB, maxScaleOutStep, tag,
                modelLoadGrace, scaleInAfter, allowedInstanceTypes, modelRepository, modelRevision, contract,
                p99SubmitToResult);
    }

    public TierSpec withModelRevision(String revision) {
        return new TierSpec(tier, model, gpuShare, gpuMemoryMiB, taskCpu, taskMemoryMiB, maxScaleOutStep,
                modelServerImageTag, modelLoadGrace, scaleInAfter, allowedInstanceTypes, modelRepository, revision,
                contract, p99SubmitToResult);
    }
}
