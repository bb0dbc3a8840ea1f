package io.gpupipe.model.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import org.junit.jupiter.api.Test;

class ScalingMetricsTest {
    private static final ScalingTargets TARGETS = new ScalingTargets(5, 70, 10);

    @Test
    void values_shouldPublishDesiredCountAndRawInputs_whenGpuDataPresent() {
        // given
        ScalingMetrics metrics = ScalingMetrics.of("small", ScalingInputs.withGpu(7, 3, 1, 2, 2, 55.5), TARGETS);

        // when, then
        assertThat(metrics.values()).extracting(ScalingMetrics.Value::name, ScalingMetrics.Value::value,
                ScalingMetrics.Value::unit).containsExactly(
                tuple("DesiredTasks", 2.0, ScalingMetrics.Unit.Count),
                tuple("QueueVisible", 7.0, ScalingMetrics.Unit.Count),
                tuple("QueueInFlight", 3.0, ScalingMetrics.Unit.Count),
                tuple("QueueDelayed", 1.0, ScalingMetrics.Unit.Count),
                tuple("RunningTasks", 2.0, ScalingMetrics.Unit.Count),
                tuple("ServiceDesiredTasks", 2.0, ScalingMetrics.Unit.Count),
                tuple("GpuUtilization", 55.5, ScalingMetrics.Unit.Percent));
    }

    @Test
    void values_shouldOmitGpuUtilization_whenNoDatapoint() {
        // given
        ScalingMetrics metrics = ScalingMetrics.of("large", ScalingInputs.withoutGpu(0, 0, 0, 0, 0), TARGETS);

        // when, then
        assertThat(metrics.values()).extracting(ScalingMetrics.Value::name).doesNotContain("GpuUtilization");
        assertThat(metrics.logFields()).containsEntry("gpuUtilization", null).containsEntry("byGpu", null)
                .containsEntry("desiredTasks", 0).containsEntry("reason", "IDLE");
    }
}
