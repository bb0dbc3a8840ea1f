package io.gpupipe.notifier.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.notifier.domain.CallbackRetryPolicy.Verdict;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CallbackRetryPolicyTest {
    private final CallbackRetryPolicy policy = new CallbackRetryPolicy(3, Duration.ofMillis(200),
            Duration.ofMillis(500));

    @ParameterizedTest
    @CsvSource({"200,DELIVERED", "204,DELIVERED", "299,DELIVERED", "301,GIVE_UP", "400,GIVE_UP", "401,GIVE_UP",
        "404,GIVE_UP", "408,RETRY", "425,RETRY", "429,RETRY", "500,RETRY", "502,RETRY", "503,RETRY", "599,RETRY",
        "600,GIVE_UP", "100,GIVE_UP"})
    void onStatus_shouldClassify_forEachStatus(int status, Verdict expected) {
        assertThat(policy.onStatus(status)).isEqualTo(expected);
    }

    @Test
    void backoffAfter_shouldDoubleAndCap_whenAttemptsGrow() {
        assertThat(policy.backoffAfter(1)).isEqualTo(Duration.ofMillis(200));
        assertThat(policy.backoffAfter(2)).isEqualTo(Duration.ofMillis(400));
        assertThat(policy.backoffAfter(3)).isEqualTo(Duration.ofMillis(500));
        assertThat(policy.backoffAfter(40)).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void mayRetryAfter_shouldStopAtMaxAttempts() {
        assertThat(policy.mayRetryAfter(1)).isTrue();
        assertThat(policy.mayRetryAfter(2)).isTrue();
        assertThat(policy.mayRetryAfter(3)).isFalse();
    }
}
