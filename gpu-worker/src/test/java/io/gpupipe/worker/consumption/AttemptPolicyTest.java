package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AttemptPolicyTest {

    @Test
    void isLastAttempt_shouldBeFalse_whenReceiveCountBelowMax() {
        // given
        var policy = new AttemptPolicy(3);
        // when, then
        assertThat(policy.isLastAttempt(1)).isFalse();
        assertThat(policy.isLastAttempt(2)).isFalse();
    }

    @Test
    void isLastAttempt_shouldBeTrue_whenReceiveCountReachesOrPassesMax() {
        // given
        var policy = new AttemptPolicy(3);
        // when, then
        assertThat(policy.isLastAttempt(3)).isTrue();
        assertThat(policy.isLastAttempt(4)).isTrue();
    }

    @Test
    void isLastAttempt_shouldBeTrueOnFirstDelivery_whenMaxIsOne() {
        assertThat(new AttemptPolicy(1).isLastAttempt(1)).isTrue();
    }

    @Test
    void constructor_shouldReject_whenMaxBelowOne() {
        assertThatThrownBy(() -> new AttemptPolicy(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }
}
