package io.gpupipe.model.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class WarmWindowTest {
    private static final WarmWindow OFFICE = WarmWindow.parse("MON-FRI 08:00-18:00 Europe/Berlin 1");

    @Test
    void isActive_shouldFollowLocalTime_whenInsideAndOutsideTheWindow() {
        // 2026-12-01 is a Tuesday; Berlin is UTC+1 in December
        assertThat(OFFICE.isActive(Instant.parse("2026-12-01T06:59:00Z"))).isFalse();
        assertThat(OFFICE.isActive(Instant.parse("2026-12-01T07:00:00Z"))).isTrue();
        assertThat(OFFICE.isActive(Instant.parse("2026-12-01T16:59:59Z"))).isTrue();
        assertThat(OFFICE.isActive(Instant.parse("2026-12-01T17:00:00Z"))).isFalse();
        // Saturday, office hours
        assertThat(OFFICE.isActive(Instant.parse("2026-12-05T10:00:00Z"))).isFalse();
        assertThat(OFFICE.minimumAt(Instant.parse("2026-12-01T10:00:00Z"))).isEqualTo(1);
        assertThat(OFFICE.minimumAt(Instant.parse("2026-12-05T10:00:00Z"))).isZero();
    }

    @Test
    void schedules_shouldBeApplicationAutoScalingCron_whenSynthesized() {
        assertThat(OFFICE.startSchedule()).isEqualTo("cron(0 8 ? * MON-FRI *)");
        assertThat(OFFICE.endSchedule()).isEqualTo("cron(0 18 ? * MON-FRI *)");
        assertThat(WarmWindow.parse("sat 09:30-12:00 UTC 2").startSchedule()).isEqualTo("cron(30 9 ? * SAT *)");
        assertThat(OFFICE).hasToString("MON-FRI 08:00-18:00 Europe/Berlin 1");
    }

    @Test
    void parse_shouldNameTheProblem_whenTextIsBad() {
        assertThatThrownBy(() -> WarmWindow.parse("MON-FRI 08:00-18:00 Europe/Berlin"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DAYS HH:MM-HH:MM ZONE MIN_TASKS");
        assertThatThrownBy(() -> WarmWindow.parse("MON-FRX 08:00-18:00 UTC 1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown day 'FRX'");
        assertThatThrownBy(() -> WarmWindow.parse("MON-FRI 18:00-08:00 UTC 1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start before it ends");
        assertThatThrownBy(() -> WarmWindow.parse("MON-FRI 08:00-18:00 Mars/Olympus 1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown time zone");
        assertThatThrownBy(() -> WarmWindow.parse("MON-FRI 08:00-18:00 UTC 0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minTasks must be >= 1");
    }
}
