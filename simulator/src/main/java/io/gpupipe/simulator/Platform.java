package io.gpupipe.simulator;

import io.gpupipe.model.scaling.ScalingTargets;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
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
 *                                     step 3)
 * @param smallLoadSeconds             image pull + model load, small tier: seed 001's ~7 min cold start minus the 5 min
 *                                     of provisioning
 * @param largeLoadSeconds             large tier: seed 001's 15–20 min cold start (midpoint 17.5) minus provisioning
 * @param idleInstanceSeconds          an instance without tasks until Managed Instances terminates it (assumption:
 *                                     not published; seed 000 says the instance terminates after scale-in)
 * @param singleTokensPerSecond        one request alone on the small model: 102 tokens in 4,956 ms (seed 001's example
 *                                     result)
 * @param largeSlowdown                how much slower the large model generates (70B on 8 GPUs vs 7B on 1; assumption)
 * @param batchEfficiency              what each extra concurrent request adds with continuous batching: window 16 gave
 *                                     14.2× the one-at-a-time worker (docs/benchmarks.md), (14.2−1)/15
 * @param maxBatchSpeedup              saturation of continuous batching: the stand-in saturated at 33.9 jobs/s vs
 *                                     2.12 one at a time (30.1 / 14.2) = 16×
 * @param ourWindow                    requests a gpupipe worker keeps running at once: the 16 server slots it keeps
 *                                     busy (its window is 20, shared-model WindowSizing: the 4 beyond wait inside
 *                                     the server)
 * @param seedWindow                   seeds' workers: one message at a time (seed 000: "processes one SQS message at a
 *                                     time"; seed 001: "6 messages processed in ~30 seconds once warm")
 * @param smallPricePerHour            g6e.xlarge On-Demand $1.01/h (seed 001's cost table; public us-east-1 price lists
 *                                     show $1.861/h — override with --set)
 * @param largePricePerHour            g6e.48xlarge $13.35/h (seed 001)
 * @param managementFeeFraction        ECS Managed Instances management fee as a fraction of the instance price: the ECS
 *                                     pricing page's example is $0.037/h on a c6a.2xlarge ($0.306/h) ≈ 12 %, and
 *                                     G-series fees dropped 35 % from 2026-07-01 (seed 000) → 0.078
 * @param spotDiscount                 Spot price below On-Demand: GPU Spot runs roughly 40–70 % below (public price
 *                                     trackers); seed 004 "up to 90 %"; we take 0.6
 * @param spotInterruptionsPerHour     chance per Spot instance-hour of an interruption (assumption, pessimistic: GPU
 *                                     Spot "is less predictable than CPU Spot", seed 000)
 * @param spotNoticeSeconds            Spot interruption notice: 2 minutes (EC2 user guide); ECS sends SIGTERM, the
 *                                     worker drains (stopTimeout ≤ 120 s)
 * @param smallMaxTasks                seed 001 MaxTaskCount 10 (and our SmallMaxTasks default)
 * @param largeMaxTasks                seed 001 LargeModelMaxTaskCount 4
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
 */
public record Platform(
        double metricPeriodSeconds,
        double alarmDelaySeconds,
        double sqsMetricLagSeconds,
        double provisioningSeconds,
        double smallLoadSeconds,
        double largeLoadSeconds,
        double idleInstanceSeconds,
        double singleTokensPerSecond,
        double largeSlowdown,
        double batchEfficiency,
        double maxBatchSpeedup,
        int ourWindow,
        int seedWindow,
        double smallPricePerHour,
        double largePricePerHour,
        double managementFeeFraction,
        double spotDiscount,
        double spotInterruptionsPerHour,
        double spotNoticeSeconds,
        int smallMaxTasks,
        int largeMaxTasks,
        double backlogPerTask,
        double targetGpuUtilization,
        double seed001GpuMemoryPercent,
        double seed001Threshold,
        int seed001ScaleInMinutes,
        int seed000IdleMinutes,
        double ttlSeconds,
        double cacheHitRate,
        double cacheHitSeconds) {

    public Platform {
        if (cacheHitRate < 0 || cacheHitRate > 1) {
            throw new IllegalArgumentException("cacheHitRate is a share of arrivals, 0 to 1, got " + cacheHitRate);
        }
    }

    /** The documented defaults. */
    public static Platform defaults() {
        return new Platform(60, 60, 60, 300, 120, 750, 60, 102 / 4.956, 4, (14.2 - 1) / 15, 33.9 / (30.1 / 14.2),
                16, 1, 1.01, 13.35, 0.037 / 0.306 * 0.65, 0.6, 0.05, 120, 10, 4,
                Double.parseDouble(ScalingTargets.DEFAULT_BACKLOG_PER_TASK), 70, 90, 5, 5, 5, 3600, 0, 0.1);
    }

    /** Model load after provisioning for {@code tier}. */
    public double loadSeconds(SimulatedTier tier) {
        return switch (tier) {
            case SMALL -> smallLoadSeconds;
            case LARGE -> largeLoadSeconds;
        };
    }

    /** On-Demand instance price plus the management fee, per hour. */
    public double onDemandPerHour(SimulatedTier tier) {
        double price = switch (tier) {
            case SMALL -> smallPricePerHour;
            case LARGE -> largePricePerHour;
        };
        return price * (1 + managementFeeFraction);
    }

    /** Spot price plus the management fee (charged on the instance type, assumed unchanged by Spot), per hour. */
    public double spotPerHour(SimulatedTier tier) {
        return onDemandPerHour(tier) - onDemandPerHour(tier) / (1 + managementFeeFraction) * spotDiscount;
    }

    public int maxTasks(SimulatedTier tier) {
        return switch (tier) {
            case SMALL -> smallMaxTasks;
            case LARGE -> largeMaxTasks;
        };
    }

    /** Seconds one job of {@code maxTokens} takes alone on {@code tier}'s model. */
    public double singleJobSeconds(SimulatedTier tier, int maxTokens) {
        double seconds = maxTokens / singleTokensPerSecond;
        return tier == SimulatedTier.LARGE ? seconds * largeSlowdown : seconds;
    }

    /** Throughput multiple of {@code concurrent} requests batched together over one alone. */
    public double batchSpeedup(int concurrent) {
        return Math.min(1 + (concurrent - 1) * batchEfficiency, maxBatchSpeedup);
    }

    /** A copy with one parameter changed: {@code name=value}. */
    public Platform with(String assignment) {
        int eq = assignment.indexOf('=');
        if (eq < 1) {
            throw new IllegalArgumentException("--set wants name=value, got '" + assignment + "'");
        }
        String name = assignment.substring(0, eq).trim();
        String value = assignment.substring(eq + 1).trim();
        RecordComponent[] components = Platform.class.getRecordComponents();
        Object[] args = new Object[components.length];
        boolean found = false;
        try {
            for (int i = 0; i < components.length; i++) {
                RecordComponent c = components[i];
                args[i] = c.getAccessor().invoke(this);
                if (c.getName().equals(name)) {
                    args[i] = c.getType() == int.class ? (Object) Integer.parseInt(value) : Double.parseDouble(value);
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("unknown parameter '" + name + "'; known: " + names());
            }
            Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
            Constructor<Platform> constructor = Platform.class.getDeclaredConstructor(types);
            return constructor.newInstance(args);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter '" + name + "' wants a number, got '" + value + "'", e);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause() instanceof IllegalArgumentException invalid ? invalid
                    : new IllegalStateException("cannot rebuild Platform", e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot rebuild Platform", e);
        }
    }

    private static String names() {
        return Arrays.stream(Platform.class.getRecordComponents()).map(RecordComponent::getName)
                .collect(Collectors.joining(", "));
    }
}
