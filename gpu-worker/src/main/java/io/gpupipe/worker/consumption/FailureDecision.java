package io.gpupipe.worker.consumption;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * What a worker does with a message whose inference failed on this delivery (after in-job retries):
 * a permanent failure is final at once; a transient one goes back to the queue with a growing delay, except on the
 * last attempt, where the client gets a {@code failed} result before SQS moves the message to the DLQ.
 */
public sealed interface FailureDecision {

    /** Write a {@code failed} result and delete the message: retrying cannot help. */
    record FailNow(ModelFailure failure) implements FailureDecision {
    }

    /** Write a {@code failed} result, then make the message visible again so the redrive policy moves it to the DLQ. */
    record FailLastAttempt(ModelFailure failure) implements FailureDecision {
    }

    /** Leave no result; make the message visible again after {@code delay} for another attempt. */
    record Requeue(Duration delay) implements FailureDecision {
    }

    /**
     * Decides for a message on its {@code receiveCount}-th delivery; the requeue delay grows with the receive
     * count as {@code requeue} says.
     */
    static FailureDecision decide(ModelFailure failure, int receiveCount, AttemptPolicy attempts, Backoff requeue,
                                  DoubleSupplier random) {
        if (!failure.retryable()) {
            return new FailNow(failure);
        }
        if (attempts.isLastAttempt(receiveCount)) {
            return new FailLastAttempt(failure);
        }
        return new Requeue(requeue.delay(Math.max(1, receiveCount), random));
    }
}
