package io.gpupipe.scaling;

import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.observability.MetricNamespace;
import io.gpupipe.model.scaling.ScalingTargets;
import io.gpupipe.model.scaling.WarmWindow;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithConverter;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Configuration of the scaling-metric function (env vars GPUPIPE_SCALING_*). */
@ConfigMapping(prefix = "gpupipe.scaling")
public interface ScalingConfig {
    /**
     * Each tier's queue, service and targets, by tier name ({@code GPUPIPE_SCALING_TIERS_<TIER>_*}); every tier of
     * the catalogue needs an entry, and no other tier may have one ({@link #settings}).
     */
    Map<String, TierSettings> tiers();

    /** Namespace of the published metrics (dimension Tier). */
    @WithDefault(MetricNamespace.CONFIG_DEFAULT)
    String metricNamespace();

    /** Local endpoint for the plain ECS client; unset in AWS. */
    Optional<URI> ecsEndpointOverride();

    /** Local endpoint for the plain CloudWatch client; unset in AWS. */
    Optional<URI> cloudwatchEndpointOverride();

    /** Local endpoint for the plain EC2 Auto Scaling client; unset in AWS. */
    Optional<URI> autoscalingEndpointOverride();

    Gpu gpu();

    /** One tier: where its work waits, which service runs it, and its targets. */
    interface TierSettings {
        String queueUrl();

        /** ECS cluster name or ARN. */
        String cluster();

        /** ECS service name or ARN. */
        String service();

        /** Waiting messages one task should face; default: the catalogue's. */
        Optional<Double> backlogPerTask();

        /** GPU compute utilisation, in percent, a task should run at. */
        @WithDefault("70")
        double targetGpuUtilization();

        /** Upper bound of the published desired count; default: the catalogue's (seed 001: 10 small, 4 large). */
        Optional<Integer> maxTasks();

        /**
         * The tier's warm window, the same text the CDK app's {@code <tier>WarmWindow} context turns into scheduled
         * actions: inside it the published count never drops below its minimum.
         */
        @WithConverter(WarmWindowConverter.class)
        Optional<WarmWindow> warmWindow();

        /** The warm window's minimum at {@code at}, 0 outside it or without one. */
        default int minimumAt(Instant at) {
            return warmWindow().map(w -> w.minimumAt(at)).orElse(0);
        }

        /** The targets of {@code tier}: these settings, or the catalogue's where unset. */
        default ScalingTargets targets(TierDefinition tier) {
            return new ScalingTargets(backlogPerTask().orElse(tier.backlogPerTask()), targetGpuUtilization(),
                    maxTasks().orElse(tier.maxTasks()));
        }
    }

    /** Where the GPU compute utilisation comes from (Container Insights with enhanced observability). */
    interface Gpu {
        @WithDefault("ECS/ContainerInsights")
        String namespace();

        @WithDefault("TaskGPUUtilization")
        String metricName();

        @WithDefault("Average")
        String statistic();

        @WithDefault("60s")
        Duration period();

        /** How far back a datapoint may be; older or none means no signal. */
        @WithDefault("5m")
        Duration lookback();
    }

    /**
     * Every catalogue tier with its settings, in catalogue (publishing) order; fails naming the environment
     * variable when a tier has none, or when settings name a tier the catalogue does not have.
     */
    default Map<TierDefinition, TierSettings> settings(TierCatalogue catalogue) {
        Map<TierDefinition, TierSettings> all = new LinkedHashMap<>();
        for (TierDefinition tier : catalogue.tiers()) {
            TierSettings settings = tiers().get(tier.tier().wireName());
            if (settings == null) {
                throw new IllegalStateException("tier " + tier.tier() + " is in the catalogue but has no scaling "
                        + "settings: set GPUPIPE_SCALING_TIERS_" + tier.tier().envName() + "_QUEUE_URL, _CLUSTER, "
                        + "_SERVICE");
            }
            all.put(tier, settings);
        }
        for (String name : tiers().keySet()) {
            if (catalogue.find(name).isEmpty()) {
                throw new IllegalStateException("gpupipe.scaling.tiers." + name + " names no tier of the catalogue ("
                        + catalogue.describeNames() + ")");
            }
        }
        return all;
    }
}
