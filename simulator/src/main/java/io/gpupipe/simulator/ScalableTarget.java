package io.gpupipe.simulator;

import io.gpupipe.model.Tier;

/**
 * What a scaling policy ({@link Scaler}) sees of one simulated tier and what it sets: the metrics CloudWatch would give
 * it and the scalable target's desired count and minimum. {@link TierSimulation} is one; the policies know only this.
 */
interface ScalableTarget {
    Platform platform();

    Tier tier();

    Trace trace();

    /** Simulated seconds since the trace's start. */
    double now();

    int desired();

    /** SQS ApproximateNumberOfMessagesVisible now. */
    int visible();

    /** AWS/SQS NumberOfMessagesSent (Sum) of the period ending now. */
    int sentThisPeriod();

    int maxVisibleThisPeriod();

    int inFlight();

    /** ECS runningCount: tasks whose containers run (loading, polling or draining). */
    int runningTasks();

    /** Container Insights TaskGPUUtilization: share of the last period the service's polling tasks were busy. */
    double gpuUtilizationPercent(double period);

    /** Application Auto Scaling sets the service's desired count, clamped to [min, max]. */
    void setDesired(int count);

    /** The trace starts inside a warm window: {@code count} tasks already serve (their cost counts from t = 0). */
    void prewarm(int count);

    /** A scheduled action changes the minimum; the desired count is raised to it. */
    void setMinCapacity(int min);
}
