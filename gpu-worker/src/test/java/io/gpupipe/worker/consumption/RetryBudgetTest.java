package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryBudgetTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final Backoff backoff = Backoff.exponential(Duration.ofMillis(500), Duration.ofSeconds(8));
    private final ModelFailure transientFailure = ModelFailure.httpStatus(500, "boom");

    @Test
    void callTimeout_shouldBeWhatIsLeftOfTheBudget() {
        // given
        var budget = RetryBudget.start(T0, Duration.ofSeconds(300), 4, backoff);
        // when, then
        assertThat(budget.callTimeout(T0)).isEqualTo(Duration.ofSeconds(300));
        assertThat(budget.callTimeout(T0.plusSeconds(100))).isEqualTo(Duration.ofSeconds(200));
        assertThat(budget.callTimeout(T0.plusSeconds(400))).isEqualTo(Duration.ZERO);
    }

    @Test
    void afterFailure_shouldRetryWithGrowingWaits_whenCallsAndTimeRemain() {
        // given
        var budget = RetryBudget.start(T0, Duration.ofSeconds(300), 4, backoff);
        // when
        var first = budget.afterFailure(transientFailure, 1, T0, () -> 1.0);
        var second = budget.afterFailure(transientFailure, 2, T0, () -> 1.0);
        // then
        assertThat(first).isEqualTo(new RetryBudget.Decision.RetryAfter(Duration.ofMillis(500)));
        assertThat(second).isEqualTo(new RetryBudget.Decision.RetryAfter(Duration.ofSeconds(1)));
    }

    @Test
    void afterFailure_shouldGiveUp_whenAllCallsUsed() {
        var budget = RetryBudget.start(T0, Duration.ofSeconds(300), 4, backoff);
        var decision = budget.afterFailure(transientFailure, 4, T0, () -> 0.5);
        assertThat(decision).isInstanceOf(RetryBudget.Decision.GiveUp.class);
        assertThat(((RetryBudget.Decision.GiveUp) decision).why()).contains("4 calls");
    }

    @Test
    void afterFailure_shouldGiveUp_whenTheWaitWouldOutlastTheBudget() {
        // given a budget with 600 ms left and a first wait of at least 250 ms + 100 ms minimum call
        var budget = RetryBudget.start(T0, Duration.ofSeconds(1), 4, backoff);
        // when
        var decision = budget.afterFailure(transientFailure, 1, T0.plusMillis(700), () -> 0.0);
        // then
        assertThat(decision).isInstanceOf(RetryBudget.Decision.GiveUp.class);
    }

    @Test
    void afterFailure_shouldGiveUpAtOnce_whenFailureIsPermanent() {
        var budget = RetryBudget.start(T0, Duration.ofSeconds(300), 4, backoff);
        var decision = budget.afterFailure(ModelFailure.httpStatus(400, "bad"), 1, T0, () -> 0.5);
        assertThat(decision).isEqualTo(new RetryBudget.Decision.GiveUp("not retryable"));
    }
}
