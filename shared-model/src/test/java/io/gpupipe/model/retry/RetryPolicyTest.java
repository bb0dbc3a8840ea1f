package io.gpupipe.model.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.retry.RetryPolicy.Jitter;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** Records each pause and moves the clock on by it, so runs take no real time. */
    private final List<Duration> pauses = new ArrayList<>();
    private Instant now = T0;
    private final Clock clock = new Clock() {
        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    };
    private final RetryPolicy.Sleeper sleeper = pause -> {
        pauses.add(pause);
        now = now.plus(pause);
    };

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private Retry start(RetryPolicy policy, double random) {
        return policy.start(sleeper, clock, () -> random);
    }

    /** Fails every attempt: how many ran, given the run. */
    private static int failEvery(Retry retry) {
        int attempts = 0;
        do {
            attempts++;
        } while (retry.another());
        return attempts;
    }

    @Test
    void pauses_shouldDoubleFromTheFirst_andStopGrowingAtTheMax() {
        // given
        RetryPolicy policy = RetryPolicy.exponential(6, Duration.ofMillis(100), Duration.ofMillis(500));
        // when
        int attempts = failEvery(start(policy, 0.5));
        // then
        assertThat(attempts).isEqualTo(6);
        assertThat(pauses).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
                Duration.ofMillis(500), Duration.ofMillis(500));
    }

    @Test
    void another_shouldSayNo_afterTheLastAttempt_withoutPausing() {
        // given
        Retry retry = start(RetryPolicy.exponential(2, Duration.ofMillis(10), Duration.ofMillis(10)), 0);
        // when
        boolean second = retry.another();
        boolean third = retry.another();
        // then
        assertThat(second).isTrue();
        assertThat(third).isFalse();
        assertThat(retry.attempt()).isEqualTo(2);
        assertThat(pauses).containsExactly(Duration.ofMillis(10));
    }

    @Test
    void oneAttempt_shouldMeanNoRetry() {
        assertThat(failEvery(start(RetryPolicy.immediate(1), 0))).isEqualTo(1);
        assertThat(pauses).isEmpty();
    }

    @Test
    void immediate_shouldRetryWithoutPausing() {
        assertThat(failEvery(start(RetryPolicy.immediate(3), 0.7))).isEqualTo(3);
        assertThat(pauses).isEmpty();
    }

    @Test
    void equalJitter_shouldKeepHalfOfTheCap_andDrawTheRest() {
        // given
        RetryPolicy policy = RetryPolicy.exponential(5, Duration.ofMillis(100), Duration.ofSeconds(1))
                .withJitter(Jitter.EQUAL);
        // then the third pause (cap 400 ms) lies in [200, 400]
        assertThat(policy.delayAfter(3, () -> 0.0)).isEqualTo(Duration.ofMillis(200));
        assertThat(policy.delayAfter(3, () -> 0.5)).isEqualTo(Duration.ofMillis(300));
        assertThat(policy.delayAfter(3, () -> 0.999_999)).isEqualTo(Duration.ofMillis(400));
    }

    @Test
    void fullJitter_shouldDrawTheWholePause() {
        RetryPolicy policy = RetryPolicy.exponential(5, Duration.ofMillis(10), Duration.ofMillis(100))
                .withJitter(Jitter.FULL);
        assertThat(policy.delayAfter(2, () -> 0.0)).isEqualTo(Duration.ZERO);
        assertThat(policy.delayAfter(2, () -> 0.25)).isEqualTo(Duration.ofMillis(5));
        assertThat(policy.delayAfter(9, () -> 0.999_999)).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void unlimited_shouldKeepGoing_atTheMaxPause() {
        // given
        Retry retry = start(RetryPolicy.exponential(RetryPolicy.UNLIMITED, Duration.ofSeconds(1),
                Duration.ofSeconds(20)), 0);
        // when
        for (int i = 0; i < 1_000; i++) {
            assertThat(retry.another()).isTrue();
        }
        // then
        assertThat(retry.attempt()).isEqualTo(1_001);
        assertThat(pauses.get(pauses.size() - 1)).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void within_shouldGiveUp_whenTheNextAttemptCouldNotStartInTime() {
        // given pauses of 100, 200, 400 ms under a 500 ms limit
        RetryPolicy policy = RetryPolicy.exponential(RetryPolicy.UNLIMITED, Duration.ofMillis(100),
                Duration.ofSeconds(1)).within(Duration.ofMillis(500));
        // when
        int attempts = failEvery(start(policy, 0));
        // then 100 + 200 fit, 100 + 200 + 400 would not
        assertThat(attempts).isEqualTo(3);
        assertThat(pauses).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }

    @Test
    void within_shouldCountTheTimeTheAttemptsTook() {
        // given
        Retry retry = start(RetryPolicy.immediate(RetryPolicy.UNLIMITED).within(Duration.ofSeconds(1)), 0);
        // when the attempts themselves take 600 ms each
        now = now.plusMillis(600);
        boolean second = retry.another();
        now = now.plusMillis(600);
        boolean third = retry.another();
        // then
        assertThat(second).isTrue();
        assertThat(third).isFalse();
    }

    @Test
    void reset_shouldStartAgainFromTheFirstPause() {
        // given
        Retry retry = start(RetryPolicy.exponential(3, Duration.ofMillis(10), Duration.ofSeconds(1)), 0);
        retry.another();
        retry.another();
        // when
        retry.reset();
        // then
        assertThat(retry.attempt()).isEqualTo(1);
        assertThat(retry.another()).isTrue();
        assertThat(pauses).containsExactly(Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(10));
    }

    @Test
    void another_shouldStop_andKeepTheFlag_whenTheThreadIsInterrupted() {
        // given
        Retry retry = start(RetryPolicy.exponential(5, Duration.ofMillis(10), Duration.ofMillis(10)), 0);
        Thread.currentThread().interrupt();
        // when
        boolean again = retry.another();
        // then
        assertThat(again).isFalse();
        assertThat(retry.interrupted()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(pauses).isEmpty();
    }

    @Test
    void another_shouldStop_andSetTheFlag_whenThePauseIsInterrupted() {
        // given
        Retry retry = RetryPolicy.exponential(5, Duration.ofMillis(10), Duration.ofMillis(10))
                .start(pause -> {
                    throw new InterruptedException("stop");
                }, clock, () -> 0);
        // when
        boolean again = retry.another();
        // then
        assertThat(again).isFalse();
        assertThat(retry.interrupted()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void aPolicy_shouldRefuseWhatCannotBeRun() {
        assertThatThrownBy(() -> RetryPolicy.immediate(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.exponential(3, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.exponential(3, Duration.ofMillis(-1), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.immediate(3).within(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
