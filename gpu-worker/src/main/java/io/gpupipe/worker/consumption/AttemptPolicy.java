package io.gpupipe.worker.consumption;

/**
 * How many times SQS hands a message to a worker before its redrive policy moves it to the DLQ. The worker writes a
 * {@code failed} result on the last attempt, so a client always learns the outcome.
 */
public record AttemptPolicy(int maxReceiveCount) {
    public static final int DEFAULT_MAX_RECEIVE_COUNT = 3;

    public AttemptPolicy {
        if (maxReceiveCount < 1) {
            throw new IllegalArgumentException("maxReceiveCount must be at least 1, got " + maxReceiveCount);
        }
    }

    /** True when {@code receiveCount} (SQS ApproximateReceiveCount) is the last delivery before the DLQ. */
    public boolean isLastAttempt(int receiveCount) {
        return receiveCount >= maxReceiveCount;
    }
}
