package io.gpupipe.scaling;

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
    /** The small tier (GPUPIPE_SCALING_SMALL_*). */
    TierSettings small();

    /** The large tier (GPUPIPE_SCALING_LARGE_*). */
    TierSettings large();

    /** Namespace of the published metrics (dimension Tier). */
    @WithDefault(MetricNamespace.CONFIG_DEFAULT)
    String metricNamespace();

    /** Local endpoint for the plain ECS client; unset in AWS. */
    Optional<URI> ecsEndpointOverride();

    /** Local endpoint for the plain CloudWatch client; unset in AWS. */
    Optional<URI> cloudwatchEndpointOverride();

    Gpu gpu();

    /** One tier: where its work waits, which service runs it, and its targets. */
    interface TierSettings {
        String queueUrl();

        /** ECS cluster name or ARN. */
        String cluster();

        /** ECS service name or ARN. */
        String service();

        /** Waiting messages one task should face (see ScalingTargets.DEFAULT_BACKLOG_PER_TASK). */
        @WithDefault(ScalingTargets.DEFAULT_BACKLOG_PER_TASK)
        double backlogPerTask();

        /** GPU compute utilisation, in percent, a task should run at. */
        @WithDefault("70")
        double targetGpuUtilization();

        /** Upper bound of the published desired count (seed 001: 10 small, 4 large). */
        int maxTasks();

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

        default ScalingTargets targets() {
            return new ScalingTargets(backlogPerTask(), targetGpuUtilization(), maxTasks());
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

    /** The tiers by wire name, in publishing order. */
    default Map<String, TierSettings> tiers() {
        Map<String, TierSettings> tiers = new LinkedHashMap<>();
        tiers.put("small", small());
        tiers.put("large", large());
        return tiers;
    }
}
