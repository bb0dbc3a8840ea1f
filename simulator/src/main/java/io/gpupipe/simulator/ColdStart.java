package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import io.gpupipe.model.serving.ModelServerHealthCheck;
import java.util.EnumSet;
import java.util.Set;

/**
 * How long one tier's task takes to start under a set of levers, stage by stage, from {@link Platform}'s sourced
 * figures: capacity (a new instance, a warm-pool instance, or an idle one), image pull, weights into GPU memory,
 * engine start and worker readiness. The scaling signal before them is not a figure but what the simulated scaler
 * does.
 */
final class ColdStart {
    /** Where the task's instance comes from. */
    enum Capacity {
        /** A new instance: Managed Instances, or a cold EC2 launch of the warm-pool variant's group. */
        NEW,
        /** A stopped warm-pool instance, its images pulled when it was prepared. */
        WARM_POOL,
        /** An instance still running after its last task stopped: images cached, weights in the page cache. */
        IDLE
    }

    private static final double MIB_PER_GIB = 1024;
    /** The instance volume's headroom over the images it holds (cdk TierSpec.taskStorageGiB's 20 %). */
    private static final double VOLUME_HEADROOM = 1.2;

    private final Platform platform;
    private final TierFigures tier;
    private final Set<Lever> levers;

    ColdStart(Platform platform, Tier tier, Set<Lever> levers) {
        this.platform = platform;
        this.tier = platform.tier(tier);
        this.levers = levers.isEmpty() ? EnumSet.noneOf(Lever.class) : EnumSet.copyOf(levers);
    }

    boolean has(Lever lever) {
        return levers.contains(lever);
    }

    /**
     * Before an Auto Scaling group launches or starts an instance: ECS managed scaling's alarm, unless the wake set
     * the group's desired capacity itself ({@code woken}). Managed Instances provision at once.
     */
    double capacitySignalSeconds(Capacity capacity, boolean woken) {
        return has(Lever.WARM_POOL) && !woken && capacity != Capacity.IDLE ? platform.capacitySignalSeconds() : 0;
    }

    /** From the desired count's rise until ECS can start the task; {@code woken}: the wake set the capacity too. */
    double capacitySeconds(Capacity capacity, boolean woken) {
        double signal = capacitySignalSeconds(capacity, woken);
        return switch (capacity) {
            case NEW -> platform.provisioningSeconds() + signal;
            case WARM_POOL -> platform.warmStartSeconds() + signal;
            case IDLE -> 0;
        };
    }

    /** Compressed plus unpacked image, GiB: the bytes a pull writes. */
    double pulledGiB() {
        double image = platform.imageCompressedGiB() + platform.imageUnpackedGiB();
        return has(Lever.STREAM) ? image : image + 2 * tier.weightsGiB().value();
    }

    double pullSeconds(Capacity capacity) {
        return capacity == Capacity.NEW ? pulledGiB() * MIB_PER_GIB / platform.volumeMiBps() : 0;
    }

    /** S3 streaming, capped by the instance's network. */
    double streamGiBps() {
        return Math.min(platform.s3StreamGiBps(), tier.networkGiBps().value());
    }

    double weightsSeconds(Capacity capacity) {
        double weights = tier.weightsGiB().value();
        if (has(Lever.STREAM)) {
            return weights / streamGiBps();
        }
        // a stopped instance lost its page cache: the baked weights come off the gp3 volume
        return capacity == Capacity.WARM_POOL ? weights * MIB_PER_GIB / platform.volumeMiBps()
                : weights / platform.pageCacheGiBps();
    }

    double engineSeconds() {
        return tier.engineStartSeconds().value();
    }

    /** The model-server health check's interval: the longest a started dependent container waits for HEALTHY. */
    double healthCheckIntervalSeconds() {
        return ModelServerHealthCheck.tolerating(tier.definition().modelLoadGrace()).interval().toSeconds();
    }

    /** From the model answering until the worker takes work. */
    double readinessSeconds() {
        if (has(Lever.READY)) {
            // the worker started with the model server and asks it again every retry interval
            return platform.readinessRetrySeconds() + platform.warmUpSeconds();
        }
        return healthCheckIntervalSeconds() + platform.workerStartSeconds() + platform.warmUpSeconds();
    }

    /** From the task's start on its instance until its worker polls. */
    double loadSeconds(Capacity capacity) {
        return pullSeconds(capacity) + weightsSeconds(capacity) + engineSeconds() + readinessSeconds();
    }

    /** Instance-seconds to prepare one warm-pool instance: a cold launch that pulls the images, then stops. */
    double refillSeconds() {
        return platform.provisioningSeconds() + pullSeconds(Capacity.NEW);
    }

    /** The stopped instance's volume. */
    double warmVolumeGiB() {
        return Math.ceil(pulledGiB() * VOLUME_HEADROOM);
    }

    /** $ per second of keeping the warm pool's stopped instances (their volumes). */
    double warmPoolStoragePerSecond() {
        return has(Lever.WARM_POOL) ? platform.warmPoolSize() * warmVolumeGiB() * platform.ebsGiBMonthPrice()
                / (730 * 3600.0) : 0;
    }
}
