package io.gpupipe.model.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.scaling.ScalingDecision.Reason;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScalingPolicyTest {
    /** Seed 001's queue threshold (5 per task), GPU target 70 %, at most 10 tasks (seed 001's MaxTaskCount). */
    private static final ScalingTargets TARGETS = new ScalingTargets(5, 70, 10);

    static Stream<Arguments> cases() {
        return Stream.of(
                // name, inputs, expected desired, expected reason
                Arguments.of("0 jobs, nothing running -> 0",
                        ScalingInputs.withoutGpu(0, 0, 0, 0, 0), 0, Reason.IDLE),
                Arguments.of("0 jobs, tasks running with an idle GPU -> scale in to 0",
                        ScalingInputs.withGpu(0, 0, 0, 3, 3, 2.0), 0, Reason.IDLE),
                Arguments.of("0 jobs, stale busy GPU reading does not keep tasks -> 0",
                        ScalingInputs.withGpu(0, 0, 0, 2, 2, 95.0), 0, Reason.IDLE),
                Arguments.of("1 job, 0 running -> 1 (seed 001's metric gave 0.2, below its 1.0 threshold)",
                        ScalingInputs.withoutGpu(1, 0, 0, 0, 0), 1, Reason.BACKLOG),
                Arguments.of("1 delayed job counts as backlog -> 1",
                        ScalingInputs.withoutGpu(0, 0, 1, 0, 0), 1, Reason.BACKLOG),
                Arguments.of("5 jobs fill exactly one task -> 1",
                        ScalingInputs.withoutGpu(5, 0, 0, 0, 0), 1, Reason.BACKLOG),
                Arguments.of("6 jobs need a second task -> 2",
                        ScalingInputs.withoutGpu(6, 0, 0, 0, 1), 2, Reason.BACKLOG),
                Arguments.of("40 jobs, 0 running -> 8",
                        ScalingInputs.withoutGpu(40, 0, 0, 0, 1), 8, Reason.BACKLOG),
                Arguments.of("in-flight only keeps the running count (no GPU data)",
                        ScalingInputs.withoutGpu(0, 3, 0, 2, 2), 2, Reason.IN_FLIGHT),
                Arguments.of("in-flight only keeps the running count even with a cool GPU",
                        ScalingInputs.withGpu(0, 12, 0, 3, 3, 10.0), 3, Reason.IN_FLIGHT),
                Arguments.of("in-flight only, more tasks than in-flight jobs -> keep only those that can be busy",
                        ScalingInputs.withoutGpu(0, 1, 0, 4, 4), 1, Reason.FIRST_TASK),
                Arguments.of("in-flight held by a vanished task (0 running) -> 1",
                        ScalingInputs.withoutGpu(0, 4, 0, 0, 0), 1, Reason.FIRST_TASK),
                Arguments.of("GPU saturated, short queue -> grows beyond the backlog count",
                        ScalingInputs.withGpu(2, 16, 0, 2, 2, 95.0), 3, Reason.GPU),
                Arguments.of("GPU exactly at target keeps the count (no float round-up)",
                        ScalingInputs.withGpu(1, 16, 0, 2, 2, 70.0), 2, Reason.GPU),
                Arguments.of("missing GPU data is no signal: the backlog decides",
                        ScalingInputs.withoutGpu(2, 16, 0, 2, 2), 2, Reason.IN_FLIGHT),
                Arguments.of("clamp: 400 jobs ask for 80 tasks, the tier allows 10",
                        ScalingInputs.withoutGpu(400, 0, 0, 0, 0), 10, Reason.BACKLOG),
                Arguments.of("clamp: saturated GPU on the max count stays at max",
                        ScalingInputs.withGpu(3, 160, 0, 10, 10, 100.0), 10, Reason.GPU));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decide_shouldReturnDesiredCount_forEachCase(String name, ScalingInputs inputs, int expected,
                                                     Reason reason) {
        // when
        ScalingDecision decision = ScalingPolicy.decide(inputs, TARGETS);

        // then
        assertThat(decision.desiredTasks()).as(name).isEqualTo(expected);
        assertThat(decision.reason()).as(name).isEqualTo(reason);
    }

    @Test
    void decide_shouldMarkClamped_whenSignalsExceedMaxTasks() {
        // given
        ScalingInputs inputs = ScalingInputs.withoutGpu(400, 0, 0, 0, 0);

        // when
        ScalingDecision decision = ScalingPolicy.decide(inputs, TARGETS);

        // then
        assertThat(decision.clamped()).isTrue();
        assertThat(decision.byBacklog()).isEqualTo(80);
        assertThat(decision.desiredTasks()).isEqualTo(10);
    }

    @Test
    void decide_shouldReportNoGpuSignal_whenGpuDataMissing() {
        // given
        ScalingInputs withoutData = ScalingInputs.withoutGpu(2, 0, 0, 2, 2);
        ScalingInputs idleGpu = ScalingInputs.withGpu(2, 0, 0, 2, 2, 0.0);

        // when
        ScalingDecision noSignal = ScalingPolicy.decide(withoutData, TARGETS);
        ScalingDecision zeroLoad = ScalingPolicy.decide(idleGpu, TARGETS);

        // then
        assertThat(noSignal.hadGpuSignal()).isFalse();
        assertThat(noSignal.byGpu()).isEmpty();
        assertThat(zeroLoad.hadGpuSignal()).isTrue();
        assertThat(zeroLoad.byGpu()).hasValue(0);
    }

    @Test
    void decide_shouldIgnoreGpu_whenNoTaskRuns() {
        // given: Container Insights still reports the last task's utilisation after it stopped
        ScalingInputs inputs = ScalingInputs.withGpu(1, 0, 0, 0, 0, 90.0);

        // when
        ScalingDecision decision = ScalingPolicy.decide(inputs, TARGETS);

        // then
        assertThat(decision.byGpu()).hasValue(0);
        assertThat(decision.desiredTasks()).isEqualTo(1);
    }

    @Test
    void decide_shouldFollowBacklogTarget_whenTargetsDiffer() {
        // given
        ScalingTargets largeTier = new ScalingTargets(2, 80, 4);

        // when
        ScalingDecision decision = ScalingPolicy.decide(ScalingInputs.withoutGpu(5, 0, 0, 0, 0), largeTier);

        // then
        assertThat(decision.desiredTasks()).isEqualTo(3);
    }

    @Test
    void targets_shouldReject_whenOutOfRange() {
        assertThatThrownBy(() -> new ScalingTargets(0, 70, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("backlogPerTask");
        assertThatThrownBy(() -> new ScalingTargets(5, 0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gpuUtilizationPercent");
        assertThatThrownBy(() -> new ScalingTargets(5, 101, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScalingTargets(5, 70, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxTasks");
    }

    @Test
    void inputs_shouldReject_whenNegativeOrNaN() {
        assertThatThrownBy(() -> ScalingInputs.withoutGpu(-1, 0, 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ScalingInputs.withGpu(0, 0, 0, 0, 0, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
