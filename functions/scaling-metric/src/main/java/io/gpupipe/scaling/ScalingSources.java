package io.gpupipe.scaling;

import io.gpupipe.model.scaling.ScalingMetrics;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;

/** The ports of the scaling-metric function; each throws ScalingInputException when its AWS call fails. */
public final class ScalingSources {
    private ScalingSources() {
    }

    /** SQS GetQueueAttributes. */
    public interface QueueDepthReader {
        QueueDepth read(String queueUrl);
    }

    /** ECS DescribeServices. */
    public interface TaskCountReader {
        TaskCounts read(String cluster, String service);
    }

    /** CloudWatch GetMetricData: the newest datapoint in the lookback window, or empty when there is none. */
    public interface GpuUtilizationReader {
        OptionalDouble read(String cluster, String service, Instant at);
    }

    /** CloudWatch PutMetricData: every tier's values in one call. */
    public interface MetricWriter {
        void publish(String namespace, Instant at, List<ScalingMetrics> tiers);
    }
}
