package io.gpupipe.simulator;

/**
 * When SQS fair queues treat a tenant (a {@code MessageGroupId}) as a noisy neighbour, as the SQS developer guide
 * documents it ("How Amazon SQS fair queues work"): its in-flight messages are more than 10 % of the queue's and at
 * least 30, or its share of the consumers' recent processing time is more than 10 %. AWS calls the thresholds
 * approximate (a distributed system); the model applies them exactly.
 */
record NoisyNeighbourRule(double concurrencyShare, int minInFlight, double processingTimeShare) {
    static final NoisyNeighbourRule AWS = new NoisyNeighbourRule(0.10, 30, 0.10);

    /** True when a tenant with {@code tenantInFlight} of {@code totalInFlight} and that share of time is noisy. */
    boolean isNoisy(int tenantInFlight, int totalInFlight, double tenantProcessingShare) {
        boolean concurrency = tenantInFlight >= minInFlight && totalInFlight > 0
                && (double) tenantInFlight / totalInFlight > concurrencyShare;
        return concurrency || tenantProcessingShare > processingTimeShare;
    }
}
