package io.gpupipe.notifier.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CallbackRedeliveryTest {
    private final CallbackRedelivery policy = new CallbackRedelivery(Duration.ofSeconds(30), Duration.ofHours(24));
    private final Instant first = Instant.parse("2026-12-01T00:00:00Z");

    @Test
    void delayBefore_shouldDoubleUpToSqsMaximum_whenRedeliveriesContinue() {
        // then: 30, 60, 120, 240, 480, then 900 s (SQS's DelaySeconds cap) from the sixth on
        assertThat(policy.delayBefore(1, first, first)).contains(Duration.ofSeconds(30));
        assertThat(policy.delayBefore(2, first, first)).contains(Duration.ofSeconds(60));
        assertThat(policy.delayBefore(5, first, first)).contains(Duration.ofSeconds(480));
        assertThat(policy.delayBefore(6, first, first)).contains(Duration.ofSeconds(900));
        assertThat(policy.delayBefore(60, first, first)).contains(Duration.ofSeconds(900));
    }

    @Test
    void delayBefore_shouldGiveUp_whenTheNextTryWouldStartAfterTheDeadline() {
        // then
        Instant late = first.plus(Duration.ofHours(24)).minusSeconds(600);
        assertThat(policy.delayBefore(80, first, late)).isEqualTo(Optional.empty());
        assertThat(policy.delayBefore(80, first, late.minusSeconds(300))).contains(Duration.ofSeconds(900));
    }

    @Test
    void constructor_shouldReject_whenFirstDelayExceedsWhatSqsAccepts() {
        assertThatThrownBy(() -> new CallbackRedelivery(Duration.ofSeconds(901), Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
