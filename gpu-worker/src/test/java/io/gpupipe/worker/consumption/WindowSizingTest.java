package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WindowSizingTest {

    @ParameterizedTest(name = "{0} server slots -> headroom {1}, window {2}")
    @CsvSource({"1, 2, 3", "4, 2, 6", "8, 2, 10", "9, 3, 12", "16, 4, 20", "32, 8, 40", "64, 16, 80"})
    void window_shouldKeepEverySlotBusyPlusAQuarterWaiting(int slots, int headroom, int window) {
        WindowSizing sizing = new WindowSizing(slots);
        assertThat(sizing.headroom()).isEqualTo(headroom);
        assertThat(sizing.window()).isEqualTo(window);
    }

    @Test
    void serverStillFull_shouldHoldOnlyWhileTheJobsInFlightCoverEverySlot() {
        WindowSizing sizing = new WindowSizing(16);
        assertThat(sizing.serverStillFull(20)).isTrue();
        assertThat(sizing.serverStillFull(16)).isTrue();
        assertThat(sizing.serverStillFull(15)).isFalse();
    }

    @Test
    void constructor_shouldRejectAServerWithoutSlots() {
        assertThatThrownBy(() -> new WindowSizing(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 sequence");
    }
}
