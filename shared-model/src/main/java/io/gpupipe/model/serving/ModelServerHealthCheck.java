package io.gpupipe.model.serving;

import java.time.Duration;
import java.util.Objects;

/**
 * The ECS container health check of a tier's model server, derived from the tier's longest expected model load: a
 * start period up to ECS's 300 s cap, then an interval (ECS: at most 300 s) and retries (at most 10) whose product
 * covers the rest of the load. The CDK task definition synthesizes it; the simulator charges its interval to the
 * cold start, because a dependent container starts only at the first passing check after the server answers.
 *
 * @param startPeriod failures before this do not count
 * @param interval    time between two checks: the longest a ready server waits to be seen HEALTHY
 * @param retries     consecutive failures after the start period that mark the container UNHEALTHY
 */
public record ModelServerHealthCheck(Duration startPeriod, Duration interval, int retries) {
    /** ECS caps a container health check's start period at 300 s (task definition parameters, healthCheck). */
    public static final Duration MAX_START_PERIOD = Duration.ofSeconds(300);
    /** ECS: interval 5-300 s. */
    public static final Duration MAX_INTERVAL = Duration.ofSeconds(300);
    /** ECS: retries 1-10. */
    public static final int MAX_RETRIES = 10;
    /** The longest model load a container health check can tolerate: 300 s + 10 retries × 300 s. */
    public static final Duration MAX_MODEL_LOAD = MAX_START_PERIOD.plus(MAX_INTERVAL.multipliedBy(MAX_RETRIES));
    private static final long MIN_INTERVAL_SECONDS = 30;
    private static final int MIN_RETRIES = 3;

    public ModelServerHealthCheck {
        Objects.requireNonNull(startPeriod, "startPeriod");
        Objects.requireNonNull(interval, "interval");
    }

    /** The check that tolerates a model load of up to {@code modelLoadGrace} (1 minute to {@link #MAX_MODEL_LOAD}). */
    public static ModelServerHealthCheck tolerating(Duration modelLoadGrace) {
        long grace = modelLoadGrace.toSeconds();
        if (grace < 60 || modelLoadGrace.compareTo(MAX_MODEL_LOAD) > 0) {
            throw new IllegalArgumentException("a model load grace must be 1-55 minutes (ECS health checks: start "
                    + "period <= 300 s, then <= 10 retries of <= 300 s), got " + modelLoadGrace);
        }
        long startPeriod = Math.min(grace, MAX_START_PERIOD.toSeconds());
        long remaining = grace - startPeriod;
        long interval = Math.max(MIN_INTERVAL_SECONDS, Math.min(MAX_INTERVAL.toSeconds(),
                ceilDiv(remaining, MAX_RETRIES)));
        long retries = Math.max(MIN_RETRIES, Math.min(MAX_RETRIES, ceilDiv(remaining, interval)));
        return new ModelServerHealthCheck(Duration.ofSeconds(startPeriod), Duration.ofSeconds(interval),
                (int) retries);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
