package io.gpupipe.worker;

import io.gpupipe.model.retry.RetryPolicy;
import io.gpupipe.model.retry.RetryPolicy.Jitter;

/**
 * The worker's retry loops, each under its configured {@link RetryPolicy} ({@code gpupipe.worker.retry.*}): result
 * writes, batched deletes, failed receives (never given up: the poller runs until the drain), and the re-reads of a
 * marker another writer changed. The model calls' own retries are {@code RetryBudget}'s.
 */
public record WorkerRetries(RetryPolicy resultWrites, RetryPolicy deletes, RetryPolicy receives,
                            RetryPolicy markerChanges) {

    static WorkerRetries of(WorkerConfig.Retry retry) {
        return new WorkerRetries(
                RetryPolicy.exponential(retry.resultWriteAttempts(), retry.resultWriteBackoff(),
                        retry.resultWriteMaxBackoff()),
                RetryPolicy.exponential(retry.deleteAttempts(), retry.deleteBackoff(), retry.deleteBackoff()),
                // every worker of a tier meets the same failed receive: spread them
                RetryPolicy.exponential(RetryPolicy.UNLIMITED, retry.receiveBackoff(), retry.maxReceiveBackoff())
                        .withJitter(Jitter.EQUAL),
                RetryPolicy.immediate(retry.markerAttempts()));
    }
}
