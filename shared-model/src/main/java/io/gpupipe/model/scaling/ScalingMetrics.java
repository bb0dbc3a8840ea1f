package io.gpupipe.model.scaling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the scaling-metric function publishes for one tier: the desired task count ({@link #DESIRED_TASKS}, the
 * metric the service's scaling policy follows) and the raw inputs behind it. GPU utilisation is published only when
 * there was a datapoint, so a gap in the input stays a gap in the output instead of a false zero.
 */
public record ScalingMetrics(String tier, ScalingInputs inputs, ScalingDecision decision) {
    public static final String DESIRED_TASKS = "DesiredTasks";
    public static final String QUEUE_VISIBLE = "QueueVisible";
    public static final String QUEUE_IN_FLIGHT = "QueueInFlight";
    public static final String QUEUE_DELAYED = "QueueDelayed";
    public static final String RUNNING_TASKS = "RunningTasks";
    public static final String SERVICE_DESIRED_TASKS = "ServiceDesiredTasks";
    public static final String GPU_UTILIZATION = "GpuUtilization";

    /** CloudWatch unit of a published value. */
    public enum Unit {
        Count, Percent
    }

    /** One metric value. */
    public record Value(String name, double value, Unit unit) {
    }

    public ScalingMetrics {
        Objects.requireNonNull(tier, "tier");
        Objects.requireNonNull(inputs, "inputs");
        Objects.requireNonNull(decision, "decision");
    }

    /** Computes the decision for {@code inputs} and wraps both. */
    public static ScalingMetrics of(String tier, ScalingInputs inputs, ScalingTargets targets) {
        return new ScalingMetrics(tier, inputs, ScalingPolicy.decide(inputs, targets));
    }

    /** As {@link #of(String, ScalingInputs, ScalingTargets)}, never below a warm window's {@code minimumTasks}. */
    public static ScalingMetrics of(String tier, ScalingInputs inputs, ScalingTargets targets, int minimumTasks) {
        return new ScalingMetrics(tier, inputs, ScalingPolicy.decide(inputs, targets, minimumTasks));
    }

    /** The values to publish, desired count first. */
    public List<Value> values() {
        List<Value> values = new ArrayList<>();
        values.add(new Value(DESIRED_TASKS, decision.desiredTasks(), Unit.Count));
        values.add(new Value(QUEUE_VISIBLE, inputs.visible(), Unit.Count));
        values.add(new Value(QUEUE_IN_FLIGHT, inputs.inFlight(), Unit.Count));
        values.add(new Value(QUEUE_DELAYED, inputs.delayed(), Unit.Count));
        values.add(new Value(RUNNING_TASKS, inputs.running(), Unit.Count));
        values.add(new Value(SERVICE_DESIRED_TASKS, inputs.desired(), Unit.Count));
        inputs.gpuUtilization().ifPresent(gpu -> values.add(new Value(GPU_UTILIZATION, gpu, Unit.Percent)));
        return values;
    }

    /** The fields of the one structured log line per tier and tick. */
    public Map<String, Object> logFields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("tier", tier);
        fields.put("desiredTasks", decision.desiredTasks());
        fields.put("reason", decision.reason().name());
        fields.put("clamped", decision.clamped());
        fields.put("byBacklog", decision.byBacklog());
        fields.put("byGpu", decision.byGpu().isPresent() ? decision.byGpu().getAsInt() : null);
        fields.put("busyFloor", decision.busyFloor());
        fields.put("visible", inputs.visible());
        fields.put("inFlight", inputs.inFlight());
        fields.put("delayed", inputs.delayed());
        fields.put("running", inputs.running());
        fields.put("serviceDesired", inputs.desired());
        fields.put("gpuUtilization", inputs.gpuUtilization().isPresent()
                ? inputs.gpuUtilization().getAsDouble() : null);
        return fields;
    }
}
