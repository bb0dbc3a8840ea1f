package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.scaling.ScalingTargets;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every number of the platform model, each with its source. Override any of them from the command line with
 * {@code --set name=value} (e.g. {@code --set smallPricePerHour=1.861}).
 *
 * @param metricPeriodSeconds          CloudWatch datapoint period and the scaling function's schedule: 60 s (seed 000:
 *                                     "SQS metrics are published at 1-minute intervals"; EventBridge rate(1 minute))
 * @param alarmDelaySeconds            datapoint → alarm action: one more period (seed 000: the alarm "might take up
 *                                     to 2 minutes to fire after the first message arrives" = period + this)
 * @param sqsMetricLagSeconds          extra lag of the AWS/SQS metric seed 000 alarms on, which our function avoids by
 *                                     reading GetQueueAttributes itself (seed 000's 2 minutes = 60 s period + 60 s)
 * @param provisioningSeconds          a new GPU instance until it can start the task: ~5 min (seed 001, cold start
 *                                     step 3: "ECS Managed Instances provisions a g6e.xlarge (~5 min)"); also a cold
 *                                     EC2 launch of the warm-pool variant and its refill
 * @param imageCompressedGiB           the vLLM OpenAI image as pulled, without weights: seed 001 "pulls ~8 GB for the
 *                                     vLLM base image" (8 GB = 7.45 GiB)
 * @param imageUnpackedGiB             the same image unpacked: cdk TierSpec.VLLM_IMAGE_GIB (20)
 * @param volumeMiBps                  write throughput of the instance volume an image is pulled to: gp3's baseline
 *                                     125 MiB/s (EBS volume types; Managed Instances lets a capacity provider size its
 *                                     task volume, ManagedInstancesStorageConfiguration.storageSizeGiB, not its
 *                                     throughput: assumed the gp3 default). A pull writes every byte twice, the
 *                                     compressed blob and the unpacked layer (containerd content store, then
 *                                     snapshot; layers unpack one after another, moby/moby#37957), so a pull takes
 *                                     (compressed + unpacked) / this. Calibration: seed 000's 14 GB image gives 13 min
 *                                     end to end here (seed 000: "approximately 13 minutes")
 * @param pageCacheGiBps               vLLM's default loader reading weights a pull has just written (in the page
 *                                     cache): 124.96 GiB in 3.85 s (marin-community/marin#7136, "Default local")
 * @param s3StreamGiBps                Run:ai Model Streamer from S3 to GPU memory (vLLM --load-format runai_streamer):
 *                                     3.51 GiB/s, Llama-3-8B on a g5.12xlarge (run-ai/runai-model-streamer
 *                                     docs/src/benchmarks.md); capped by the tier's network
 * @param wakeSeconds                  the router's wake signal until the service's desired count is set: an async
 *                                     Lambda Invoke (answered 202 at once), a cold start of the Quarkus JVM scaling
 *                                     function (p50 3.3 s, k-i-soft.ch "Lambda cold start benchmark", Quarkus on Java
 *                                     25, 1 GB), GetQueueAttributes, DescribeServices, UpdateService
 * @param wakeHoldSeconds              how long the to-zero alarm cannot undo a wake: in ALARM through the idle period it
 *                                     re-invokes its "set 0" every minute, so the wake switches its actions off and a
 *                                     scheduled run switches them on once the alarm is OK, i.e. has evaluated a period
 *                                     with the job sent: two 1-minute periods and up to one run, 180 s
 * @param warmStartSeconds             a stopped warm-pool instance until ECS can place the task: warm pool instances
 *                                     "can be launched to serve traffic in as low as 30 seconds" (AWS, EC2 Auto
 *                                     Scaling warm pools launch; InfoQ 2021-05); doubled for a GPU AMI's driver and ECS
 *                                     agent (assumption)
 * @param capacitySignalSeconds        ECS managed scaling of an Auto Scaling group capacity provider: the
 *                                     CapacityProviderReservation metric is published every minute and its scale-out
 *                                     alarm acts on one datapoint (ECS developer guide, cluster auto scaling); skipped
 *                                     when the wake sets the group's desired capacity itself
 * @param workerStartSeconds           the gpu-worker JVM from container start to its first receive (measured here:
 *                                     docs/cold-start.md, "Measured here")
 * @param warmUpSeconds                the worker's one-token warm-up inference before readiness (assumption: well
 *                                     under a second on a GPU, 1 s)
 * @param readinessRetrySeconds        how often a waiting worker asks the model server again:
 *                                     gpupipe.worker.warm-up.retry-interval (2 s)
 * @param ebsGiBMonthPrice             gp3 storage, $ per GiB-month, the stopped warm-pool instances' only cost (Amazon
 *                                     EBS pricing, us-east-1: $0.08/GB-month, 3,000 IOPS and 125 MB/s included)
 * @param warmPoolSize                 stopped instances each warm-pool tier keeps (MaxGroupPreparedCapacity)
 * @param idleInstanceSeconds          an instance without tasks until it terminates (assumption: Managed Instances'
 *                                     default of InfrastructureOptimization.scaleInAfter, 0-3600 s, is not
 *                                     published; the warm-pool variant's scaling function shrinks the group at its
 *                                     next run, within a minute)
 * @param singleTokensPerSecond        one request alone on the small model: 102 tokens in 4,956 ms (seed 001's example
 *                                     result); a tier's slowdown (tier-figures.json) divides it
 * @param batchEfficiency              what each extra concurrent request adds with continuous batching: window 16 gave
 *                                     14.2× the one-at-a-time worker (docs/benchmarks.md), (14.2−1)/15
 * @param maxBatchSpeedup              saturation of continuous batching: the stand-in saturated at 33.9 jobs/s vs
 *                                     2.12 one at a time (30.1 / 14.2) = 16×
 * @param ourWindow                    requests a gpupipe worker keeps running at once: the 16 server slots it keeps
 *                                     busy (its window is 20, shared-model WindowSizing: the 4 beyond wait inside
 *                                     the server)
 * @param seedWindow                   seeds' workers: one message at a time (seed 000: "processes one SQS message at a
 *                                     time"; seed 001: "6 messages processed in ~30 seconds once warm")
 * @param managementFeeFraction        ECS Managed Instances management fee as a fraction of the instance price: the ECS
 *                                     pricing page's example is $0.037/h on a c6a.2xlarge ($0.306/h) ≈ 12 %, and
 *                                     G-series fees dropped 35 % from 2026-07-01 (seed 000) → 0.078; an EC2 capacity
 *                                     provider (the warm-pool variant) pays none (seed 001: "zero control-plane fees")
 * @param spotDiscount                 Spot price below On-Demand: GPU Spot runs roughly 40–70 % below (public price
 *                                     trackers); seed 004 "up to 90 %"; we take 0.6
 * @param spotInterruptionsPerHour     chance per Spot instance-hour of an interruption (assumption, pessimistic: GPU
 *                                     Spot "is less predictable than CPU Spot", seed 000)
 * @param spotNoticeSeconds            Spot interruption notice: 2 minutes (EC2 user guide); ECS sends SIGTERM, the
 *                                     worker drains (stopTimeout ≤ 120 s)
 * @param backlogPerTask               our waiting jobs per task: ScalingTargets.DEFAULT_BACKLOG_PER_TASK (50;
 *                                     seed 001's threshold 5 stays in its own policy)
 * @param targetGpuUtilization         our GPU compute target, percent (scaling-metric default 70)
 * @param seed001GpuMemoryPercent      TaskGPUMemoryUtilization of a running vLLM task: vLLM pre-allocates
 *                                     --gpu-memory-utilization, default 0.9, at start-up, whatever the load
 * @param seed001Threshold             seed 001's QueueDepthScaleThreshold: 5
 * @param seed001ScaleInMinutes        seed 001: 5 periods below threshold (small; 10 large), then to 0
 * @param seed000IdleMinutes           seed 000: "empty for 5 consecutive minutes" → 0
 * @param ttlSeconds                   a job not served within this counts as late (the router's ttlSeconds; 1 h
 *                                     here)
 * @param cacheHitRate                 share of arrivals the router answers from the result cache: they
 *                                     never reach a queue or a GPU; 0 by default, e.g. {@code --set cacheHitRate=0.3}
 * @param cacheHitSeconds              submit → result of a cache hit: the router's marker write, entry read and
 *                                     result write (the local stack measured tens of ms; docs/benchmarks.md)
 * @param tiers                        each catalogue tier's figures (tier-figures.json), which {@code --set
 *                                     <tier>.<figure>=<value>} overrides
 */
public record Platform(
        double metricPeriodSeconds,
        double alarmDelaySeconds,
        double sqsMetricLagSeconds,
        double provisioningSeconds,
        double imageCompressedGiB,
        double imageUnpackedGiB,
        double volumeMiBps,
        double pageCacheGiBps,
        double s3StreamGiBps,
        double wakeSeconds,
        double wakeHoldSeconds,
        double warmStartSeconds,
        double capacitySignalSeconds,
        double workerStartSeconds,
        double warmUpSeconds,
        double readinessRetrySeconds,
        double ebsGiBMonthPrice,
        int warmPoolSize,
        double idleInstanceSeconds,
        double singleTokensPerSecond,
        double batchEfficiency,
        double maxBatchSpeedup,
        int ourWindow,
        int seedWindow,
        double managementFeeFraction,
        double spotDiscount,
        double spotInterruptionsPerHour,
        double spotNoticeSeconds,
        double backlogPerTask,
        double targetGpuUtilization,
        double seed001GpuMemoryPercent,
        double seed001Threshold,
        int seed001ScaleInMinutes,
        int seed000IdleMinutes,
        double ttlSeconds,
        double cacheHitRate,
        double cacheHitSeconds,
        Map<Tier, TierFigures> tiers) {

    public Platform {
        if (cacheHitRate < 0 || cacheHitRate > 1) {
            throw new IllegalArgumentException("cacheHitRate is a share of arrivals, 0 to 1, got " + cacheHitRate);
        }
        tiers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tiers));
    }

    /** The documented defaults, with the figures of the bundled catalogue's tiers. */
    public static Platform defaults() {
        return new Platform(60, 60, 60, 300, 8 / 1.073741824, 20, 125, 124.96 / 3.85, 3.51, 5, 180, 60, 60,
                WORKER_START_SECONDS, 1, 2, 0.08, 1, 60, 102 / 4.956, (14.2 - 1) / 15, 33.9 / (30.1 / 14.2), 16, 1,
                0.037 / 0.306 * 0.65, 0.6, 0.05, 120,
                Double.parseDouble(ScalingTargets.DEFAULT_BACKLOG_PER_TASK), 70, 90, 5, 5, 5, 3600, 0, 0.1,
                TierFigures.bundled(TierCatalogue.bundled()));
    }

    /**
     * The gpu-worker JVM until Quarkus reports it started, measured here: 2.7-3.1 CPU-seconds (java -jar
     * quarkus-run.jar; 11-19 s wall at load average 35 on 2 shared cores), 5 s on an instance's idle vCPUs.
     */
    static final double WORKER_START_SECONDS = 5;

    /** The figures of {@code tier}; fails naming the file when the simulator has none for it. */
    public TierFigures tier(Tier tier) {
        TierFigures figures = tiers.get(tier);
        if (figures == null) {
            throw new IllegalArgumentException("tier " + tier + " has no platform figures: add it to simulator "
                    + TierFigures.RESOURCE + " (tiers with figures: " + tiers.keySet() + ")");
        }
        return figures;
    }

    /** On-Demand instance price, per hour, with the Managed Instances fee unless the tier runs on plain EC2. */
    public double onDemandPerHour(Tier tier, boolean managedInstances) {
        double price = tier(tier).pricePerHour().value();
        return managedInstances ? price * (1 + managementFeeFraction) : price;
    }

    /** Spot price plus the management fee (charged on the instance type, assumed unchanged by Spot), per hour. */
    public double spotPerHour(Tier tier) {
        return onDemandPerHour(tier, true) - tier(tier).pricePerHour().value() * spotDiscount;
    }

    public int maxTasks(Tier tier) {
        return tier(tier).definition().maxTasks();
    }

    /** Seconds one job of {@code maxTokens} takes alone on {@code tier}'s model. */
    public double singleJobSeconds(Tier tier, int maxTokens) {
        return maxTokens / singleTokensPerSecond * tier(tier).slowdown().value();
    }

    /** Throughput multiple of {@code concurrent} requests batched together over one alone. */
    public double batchSpeedup(int concurrent) {
        return Math.min(1 + (concurrent - 1) * batchEfficiency, maxBatchSpeedup);
    }

    /**
     * A copy with one parameter changed: {@code name=value} for a global figure, {@code <tier>.<figure>=value} for
     * a tier's (tier-figures.json).
     */
    public Platform with(String assignment) {
        int eq = assignment.indexOf('=');
        if (eq < 1) {
            throw new IllegalArgumentException("--set wants name=value, got '" + assignment + "'");
        }
        String name = assignment.substring(0, eq).trim();
        String value = assignment.substring(eq + 1).trim();
        int dot = name.indexOf('.');
        if (dot > 0) {
            return withTierFigure(name.substring(0, dot), name.substring(dot + 1), value);
        }
        RecordComponent[] components = Platform.class.getRecordComponents();
        Object[] args = new Object[components.length];
        boolean found = false;
        try {
            for (int i = 0; i < components.length; i++) {
                RecordComponent c = components[i];
                args[i] = c.getAccessor().invoke(this);
                if (c.getName().equals(name) && c.getType() != Map.class) {
                    args[i] = c.getType() == int.class ? (Object) Integer.parseInt(value) : Double.parseDouble(value);
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("unknown parameter '" + name + "'; known: " + names()
                        + ", and <tier>.<figure> for " + tiers.keySet());
            }
            return rebuild(args);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter '" + name + "' wants a number, got '" + value + "'", e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot rebuild Platform", e);
        }
    }

    private Platform withTierFigure(String tierName, String figure, String value) {
        Tier tier = tiers.keySet().stream().filter(t -> t.wireName().equals(tierName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no tier '" + tierName + "' with figures; known: "
                        + tiers.keySet()));
        double number;
        try {
            number = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter '" + tierName + "." + figure + "' wants a number, got '"
                    + value + "'", e);
        }
        Map<Tier, TierFigures> changed = new LinkedHashMap<>(tiers);
        changed.put(tier, tier(tier).with(figure, number));
        RecordComponent[] components = Platform.class.getRecordComponents();
        Object[] args = new Object[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                args[i] = components[i].getType() == Map.class ? changed : components[i].getAccessor().invoke(this);
            }
            return rebuild(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot rebuild Platform", e);
        }
    }

    private static Platform rebuild(Object[] args) throws ReflectiveOperationException {
        Class<?>[] types = Arrays.stream(Platform.class.getRecordComponents()).map(RecordComponent::getType)
                .toArray(Class<?>[]::new);
        Constructor<Platform> constructor = Platform.class.getDeclaredConstructor(types);
        try {
            return constructor.newInstance(args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause() instanceof IllegalArgumentException invalid ? invalid
                    : new IllegalStateException("cannot rebuild Platform", e);
        }
    }

    private static String names() {
        return Arrays.stream(Platform.class.getRecordComponents()).filter(c -> c.getType() != Map.class)
                .map(RecordComponent::getName).collect(Collectors.joining(", "));
    }
}
