package io.gpupipe.model.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.scaling.ScalingDecision.Reason;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScalingLadderTest {

    @Test
    void scaleOutAdjustment_shouldAddTheWholeGap_uptoTheLargestStep() {
        ScalingLadder small = ScalingLadder.defaults(TierCatalogue.bundled().get(Tier.of("small")));
        assertThat(small.scaleOutAdjustment(0)).isZero();
        assertThat(small.scaleOutAdjustment(1)).isEqualTo(1);
        assertThat(small.scaleOutAdjustment(7)).isEqualTo(7);
        assertThat(small.scaleOutAdjustment(10)).isEqualTo(10);
        assertThat(small.scaleOutAdjustment(25)).isEqualTo(10);
        assertThat(ScalingLadder.defaults(TierCatalogue.bundled().get(Tier.of("large"))).scaleOutAdjustment(9)).isEqualTo(4);
    }

    @Test
    void scaleOutSteps_shouldBeContiguousAndEndOpen_whenSynthesized() {
        var steps = ScalingLadder.defaults(TierCatalogue.bundled().get(Tier.of("small"))).scaleOutSteps();
        assertThat(steps).hasSize(10);
        for (int i = 1; i < steps.size(); i++) {
            assertThat(steps.get(i).lowerBound()).isEqualTo(steps.get(i - 1).upperBound().getAsDouble());
        }
        assertThat(steps.get(9).upperBound()).isEmpty();
    }

    @Test
    void defaults_shouldReachZeroAfterFiveIdleMinutes_likeTheSeeds() {
        assertThat(ScalingLadder.defaults(TierCatalogue.bundled().get(Tier.of("small"))).idleMinutes()).isEqualTo(5);
        assertThat(ScalingLadder.defaults(TierCatalogue.bundled().get(Tier.of("large"))).idleMinutes()).isEqualTo(5);
        assertThat(ScalingLadder.defaults(TierCatalogue.bundled().get(Tier.of("large"))).scaleInMinutes()).isEqualTo(10);
    }

    @Test
    void constructor_shouldRejectLaddersApplicationAutoScalingRefuses() {
        assertThatThrownBy(() -> ScalingLadder.of(21, Duration.ofMinutes(5), Duration.ofMinutes(5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1-20");
        assertThatThrownBy(() -> ScalingLadder.of(4, Duration.ofMinutes(5), Duration.ofSeconds(30)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(">= 1 minute");
    }

    @Test
    void decideWithMinimum_shouldKeepTheWarmWindowsTasks_whenIdle() {
        ScalingTargets targets = new ScalingTargets(5, 70, 10);
        ScalingDecision idle = ScalingPolicy.decide(ScalingInputs.withoutGpu(0, 0, 0, 1, 1), targets, 1);
        assertThat(idle.desiredTasks()).isEqualTo(1);
        assertThat(idle.reason()).isEqualTo(Reason.WARM_MINIMUM);
        ScalingDecision busy = ScalingPolicy.decide(ScalingInputs.withoutGpu(40, 0, 0, 1, 1), targets, 1);
        assertThat(busy.desiredTasks()).isEqualTo(8);
        assertThat(busy.reason()).isEqualTo(Reason.BACKLOG);
        assertThat(ScalingPolicy.decide(ScalingInputs.withoutGpu(0, 0, 0, 0, 0), targets, 0).desiredTasks())
                .isZero();
        assertThat(ScalingPolicy.decide(ScalingInputs.withoutGpu(0, 0, 0, 0, 0), new ScalingTargets(5, 70, 2), 3)
                .desiredTasks()).isEqualTo(2);
    }
}
