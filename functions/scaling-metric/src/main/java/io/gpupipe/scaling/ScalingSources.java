package io.gpupipe.scaling;

import io.gpupipe.model.scaling.ScalingMetrics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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

    /** ECS UpdateService: the desired count of a service (the wake's, when a tier is at zero). */
    public interface ServiceWriter {
        void setDesired(String cluster, String service, int count);
    }

    /** A CloudWatch alarm's switch: whether its actions run, and its state (OK, ALARM, INSUFFICIENT_DATA). */
    public record AlarmStatus(boolean actionsEnabled, String state) {
    }

    /** CloudWatch DescribeAlarms and Disable/EnableAlarmActions, by alarm name. */
    public interface AlarmSwitch {
        /** The alarms of these names that exist. */
        Map<String, AlarmStatus> read(List<String> names);

        void disable(String name);

        void enable(List<String> names);
    }

    /** EC2 Auto Scaling groups (the warm-pool capacity of some tiers): desired capacities by name. */
    public interface CapacityGroups {
        /** The desired capacity of each group of these names that exists. */
        Map<String, Integer> desired(List<String> names);

        void setDesired(String name, int count);
    }
}
