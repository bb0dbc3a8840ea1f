package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdaptiveWindowTest {
    private final AdaptiveWindow.Settings settings = new AdaptiveWindow.Settings(1, 16, 2, 3);

    @Test
    void observe_shouldStartAtMax_andHold_whileServerKeepsUp() {
        // given
        var window = new AdaptiveWindow(settings);
        // when
        int limit = window.observe(new ServerLoad(16, 0));
        // then
        assertThat(limit).isEqualTo(16);
    }

    @Test
    void observe_shouldShrinkByAQuarter_afterConsecutiveSamplesAboveThreshold() {
        // given
        var window = new AdaptiveWindow(settings);
        // when two high samples, then a third
        window.observe(new ServerLoad(8, 8));
        int afterTwo = window.observe(new ServerLoad(8, 8));
        int afterThree = window.observe(new ServerLoad(8, 8));
        // then
        assertThat(afterTwo).isEqualTo(16);
        assertThat(afterThree).isEqualTo(12);
    }

    @Test
    void observe_shouldNotShrink_whenHighSamplesAreNotConsecutive() {
        var window = new AdaptiveWindow(settings);
        window.observe(new ServerLoad(8, 8));
        window.observe(new ServerLoad(8, 8));
        window.observe(new ServerLoad(8, 1));
        window.observe(new ServerLoad(8, 8));
        assertThat(window.observe(new ServerLoad(8, 8))).isEqualTo(16);
    }

    @Test
    void observe_shouldNeverGoBelowMin_whenServerStaysOverloaded() {
        var window = new AdaptiveWindow(settings);
        for (int i = 0; i < 100; i++) {
            window.observe(new ServerLoad(1, 50));
        }
        assertThat(window.limit()).isEqualTo(1);
    }

    @Test
    void observe_shouldGrowBackOneAtATime_whenServerQueueIsEmpty() {
        // given a shrunk window
        var window = new AdaptiveWindow(settings);
        for (int i = 0; i < 6; i++) {
            window.observe(new ServerLoad(4, 9));
        }
        int shrunk = window.limit();
        // when
        int next = window.observe(new ServerLoad(4, 0));
        // then
        assertThat(shrunk).isEqualTo(9);
        assertThat(next).isEqualTo(10);
        for (int i = 0; i < 20; i++) {
            window.observe(new ServerLoad(4, 0));
        }
        assertThat(window.limit()).isEqualTo(16);
    }

    @Test
    void observe_shouldHold_whenWaitingIsAtOrBelowThresholdButNotZero() {
        var window = new AdaptiveWindow(settings);
        for (int i = 0; i < 3; i++) {
            window.observe(new ServerLoad(8, 5));
        }
        assertThat(window.observe(new ServerLoad(8, 2))).isEqualTo(12);
    }

    @Test
    void settings_shouldReject_whenMaxBelowMin() {
        assertThatThrownBy(() -> new AdaptiveWindow.Settings(4, 2, 0, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
