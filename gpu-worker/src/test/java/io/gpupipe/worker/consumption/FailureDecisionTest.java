package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FailureDecisionTest {
    private final AttemptPolicy attempts = new AttemptPolicy(3);
    private final Backoff requeue = Backoff.exponential(Duration.ofSeconds(10), Duration.ofSeconds(120));
    private final ModelFailure transientFailure = ModelFailure.unreachable("Connection refused");

    @Test
    void decide_shouldRequeueWithGrowingDelay_whenTransientAndNotLastAttempt() {
        // when
        var first = FailureDecision.decide(transientFailure, 1, attempts, requeue, () -> 1.0);
        var second = FailureDecision.decide(transientFailure, 2, attempts, requeue, () -> 1.0);
        // then
        assertThat(first).isEqualTo(new FailureDecision.Requeue(Duration.ofSeconds(10)));
        assertThat(second).isEqualTo(new FailureDecision.Requeue(Duration.ofSeconds(20)));
    }

    @Test
    void decide_shouldFailOnLastAttempt_whenTransientOnFinalDelivery() {
        var decision = FailureDecision.decide(transientFailure, 3, attempts, requeue, () -> 0.5);
        assertThat(decision).isEqualTo(new FailureDecision.FailLastAttempt(transientFailure));
    }

    @Test
    void decide_shouldFailNow_whenPermanentEvenOnFirstDelivery() {
        var permanent = ModelFailure.notConfigured("no GGUF configured");
        var decision = FailureDecision.decide(permanent, 1, attempts, requeue, () -> 0.5);
        assertThat(decision).isEqualTo(new FailureDecision.FailNow(permanent));
    }
}
