package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import io.gpupipe.model.observability.JobMetrics;
import io.gpupipe.model.scaling.ScalingMetrics;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;

/**
 * The CloudWatch metrics the GPU side scales and alarms on: gpupipe's own (scaling-metric and router EMF, namespace
 * from the SAM stack), ECS Container Insights GPU metrics of a tier's service, and SQS queue metrics.
 */
public final class GpupipeMetrics {
    /** Container Insights (enhanced observability) namespace, where ECS Managed Instances report GPU metrics. */
    public static final String CONTAINER_INSIGHTS = "ECS/ContainerInsights";
    static final Duration MINUTE = Duration.minutes(1);

    private GpupipeMetrics() {
    }

    /** The scaling-metric function's per-tier value (dimension Tier): ScalingMetrics.DESIRED_TASKS etc. */
    public static Metric tierMetric(String namespace, Tier tier, String name, String statistic) {
        return Metric.Builder.create()
                .namespace(namespace)
                .metricName(name)
                .dimensionsMap(Map.of("Tier", tier.wireName()))
                .statistic(statistic)
                .period(MINUTE)
                .build();
    }

    /**
     * A percentile ({@code p50}, {@code p95}, {@code p99}) of a per-tier job metric (worker/router EMF, rolled up to
     * dimension Tier: shared-model JobMetrics), over {@code period}. No label: a labelled metric makes an alarm use
     * the metric-math form ({@code Metrics}) instead of a plain statistic.
     */
    public static Metric tierPercentile(String namespace, Tier tier, String name, String percentile,
                                        Duration period) {
        return Metric.Builder.create()
                .namespace(namespace)
                .metricName(name)
                .dimensionsMap(Map.of(JobMetrics.TIER, tier.wireName()))
                .statistic(percentile)
                .period(period)
                .build();
    }

    /** Desired tasks wanted by the scaling metric minus the service's desired count at the same tick. */
    public static MathExpression scalingGap(String namespace, Tier tier) {
        return MathExpression.Builder.create()
                .expression("wanted - current")
                .usingMetrics(Map.<String, IMetric>of(
                        "wanted", tierMetric(namespace, tier, ScalingMetrics.DESIRED_TASKS, "Maximum"),
                        "current", tierMetric(namespace, tier, ScalingMetrics.SERVICE_DESIRED_TASKS, "Maximum")))
                .label(tier.wireName() + " tasks wanted minus service desired count")
                .period(MINUTE)
                .build();
    }

    /** A Container Insights metric of one service (e.g. TaskGPUTemperature, TaskGPUMemoryUtilization). */
    public static Metric serviceMetric(String clusterName, String serviceName, String name, String statistic) {
        return Metric.Builder.create()
                .namespace(CONTAINER_INSIGHTS)
                .metricName(name)
                .dimensionsMap(Map.of("ClusterName", clusterName, "ServiceName", serviceName))
                .statistic(statistic)
                .period(MINUTE)
                .build();
    }

    /** An AWS/SQS metric of one queue (e.g. ApproximateNumberOfMessagesVisible). */
    public static Metric queueMetric(String queueName, String name) {
        return Metric.Builder.create()
                .namespace("AWS/SQS")
                .metricName(name)
                .dimensionsMap(Map.of("QueueName", queueName))
                .statistic("Maximum")
                .period(MINUTE)
                .build();
    }
}
