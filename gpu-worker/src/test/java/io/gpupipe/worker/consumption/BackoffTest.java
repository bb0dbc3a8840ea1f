package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private final Backoff backoff = Backoff.exponential(Duration.ofMillis(100), Duration.ofSeconds(1));

    @Test
    void cap_shouldDoubleEachTime_untilMax() {
        assertThat(backoff.cap(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(backoff.cap(2)).isEqualTo(Duration.ofMillis(200));
        assertThat(backoff.cap(4)).isEqualTo(Duration.ofMillis(800));
        assertThat(backoff.cap(5)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.cap(60)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void delay_shouldStayWithinHalfCapAndCap_whenJittered() {
        // given the extremes of the random source
        // when, then
        assertThat(backoff.delay(3, () -> 0.0)).isEqualTo(Duration.ofMillis(200));
        assertThat(backoff.delay(3, () -> 0.999999)).isEqualTo(Duration.ofMillis(400));
        assertThat(backoff.delay(3, () -> 0.5)).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void delay_shouldSpreadWorkers_whenRandomDiffers() {
        assertThat(backoff.delay(2, () -> 0.1)).isNotEqualTo(backoff.delay(2, () -> 0.9));
    }

    @Test
    void constructor_shouldReject_whenMaxBelowInitial() {
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cap_shouldReject_whenAttemptNumberBelowOne() {
        assertThatThrownBy(() -> backoff.cap(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
