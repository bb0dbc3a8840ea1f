package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.consumption.CallBatching;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HeartbeatScheduleTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void forVisibility_shouldTickEveryQuarterAndExtendByTheVisibility() {
        var schedule = HeartbeatSchedule.forVisibility(Duration.ofSeconds(60));
        assertThat(schedule.interval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(schedule.extension()).isEqualTo(Duration.ofSeconds(60));
        assertThat(schedule.extensionSeconds()).isEqualTo(60);
    }

    @Test
    void forVisibility_shouldCapTheInterval_whenVisibilityIsLong() {
        var schedule = HeartbeatSchedule.forVisibility(Duration.ofSeconds(900));
        assertThat(schedule.interval()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void isDue_shouldBeFalse_whenMoreThanTwoTicksRemain() {
        var schedule = HeartbeatSchedule.forVisibility(Duration.ofSeconds(60));
        assertThat(schedule.isDue(T0.plusSeconds(31), T0)).isFalse();
    }

    @Test
    void isDue_shouldBeTrue_whenTheMessageWouldLapseWithinTwoTicks() {
        var schedule = HeartbeatSchedule.forVisibility(Duration.ofSeconds(60));
        assertThat(schedule.isDue(T0.plusSeconds(30), T0)).isTrue();
        assertThat(schedule.isDue(T0.plusSeconds(1), T0)).isTrue();
        assertThat(schedule.isDue(T0.minusSeconds(1), T0)).isTrue();
    }

    @Test
    void extendedUntil_shouldAddTheExtensionToNow() {
        var schedule = HeartbeatSchedule.forVisibility(Duration.ofSeconds(3));
        assertThat(schedule.extendedUntil(T0)).isEqualTo(T0.plusSeconds(3));
    }

    @Test
    void constructor_shouldReject_whenExtensionIsShorterThanThreeTicks() {
        assertThatThrownBy(() -> new HeartbeatSchedule(Duration.ofSeconds(2), Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("three heartbeat");
    }

    @Test
    void constructor_shouldReject_whenExtensionIsNotWholeSeconds() {
        assertThatThrownBy(() -> new HeartbeatSchedule(Duration.ofMillis(200), Duration.ofMillis(1500)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void deleteLinger_shouldLeaveAtLeastOneHeartbeatOfMargin() {
        Duration visibility = Duration.ofSeconds(8);
        HeartbeatSchedule heartbeat = HeartbeatSchedule.forVisibility(visibility);
        assertThat(CallBatching.defaults().deleteLinger(visibility)).isLessThan(heartbeat.interval());
    }
}
