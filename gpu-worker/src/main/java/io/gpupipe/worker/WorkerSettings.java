package io.gpupipe.worker;

import io.gpupipe.adapters.QueueAttributes;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.worker.consumption.AdaptiveWindow;
import io.gpupipe.worker.consumption.AttemptPolicy;
import io.gpupipe.worker.consumption.Backoff;
import io.gpupipe.worker.consumption.HeartbeatSchedule;
import io.gpupipe.worker.consumption.WindowSizing;
import java.time.Duration;
import java.util.Optional;

/**
 * Everything the consumer needs, resolved once at start-up from {@link WorkerConfig} and what the queue says
 * (visibility timeout, redrive limit). Plain values, so tests and the benchmark can build workers directly.
 */
public record WorkerSettings(Tier tier, String taskArn, int maxInFlight, WindowSizing windowSizing, Duration waitTime,
                             Duration visibilityTimeout, AttemptPolicy attempts, Duration modelTimeout, int maxCalls,
                             Backoff callBackoff, Backoff requeueBackoff, HeartbeatSchedule heartbeat,
                             Duration drainGrace, Optional<AdaptiveWindow.Settings> adaptive,
                             Duration adaptiveInterval, TierCatalogue tiers, WorkerRetries retries) {
    public static final Duration MAX_WAIT_TIME = Duration.ofSeconds(20);

    public WorkerSettings {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("gpupipe.worker.max-in-flight must be at least 1, got " + maxInFlight);
        }
        if (waitTime.isNegative() || waitTime.compareTo(MAX_WAIT_TIME) > 0) {
            throw new IllegalArgumentException("gpupipe.worker.wait-time must be 0 to 20 s, got " + waitTime);
        }
        tiers.get(tier); // a tier of the catalogue: its definition says which tasks the queue's messages may carry
        if (visibilityTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("the queue's visibility timeout must be at least 1 s to be kept "
                    + "alive by heartbeats, got " + visibilityTimeout);
        }
    }

    /** Resolves the configuration against the queue's own attributes and the bundled tier catalogue. */
    public static WorkerSettings resolve(WorkerConfig config, QueueAttributes queue, String taskArn) {
        return resolve(config, queue, taskArn, TierCatalogue.bundled());
    }

    /** Resolves the configuration against the queue's own attributes; the tier must be one of {@code tiers}. */
    public static WorkerSettings resolve(WorkerConfig config, QueueAttributes queue, String taskArn,
                                         TierCatalogue tiers) {
        TierDefinition tier = tiers.get(config.tier());
        Duration visibility = config.visibilityTimeout().orElse(queue.visibilityTimeout());
        int maxReceiveCount = config.maxReceiveCount().or(queue::maxReceiveCount)
                .orElse(AttemptPolicy.DEFAULT_MAX_RECEIVE_COUNT);
        Duration modelTimeout = config.modelTimeout().getOrDefault(tier.tier().wireName(), tier.modelTimeout());
        WorkerConfig.Retry retry = config.retry();
        HeartbeatSchedule heartbeat = config.heartbeat().interval()
                .map(interval -> new HeartbeatSchedule(interval, visibility))
                .orElseGet(() -> HeartbeatSchedule.forVisibility(visibility));
        WindowSizing sizing = new WindowSizing(config.modelServerSlots().orElse(WindowSizing.DEFAULT_SERVER_SLOTS));
        int maxInFlight = config.maxInFlight().orElse(sizing.window());
        WorkerConfig.Adaptive adaptive = config.adaptive();
        Optional<AdaptiveWindow.Settings> window = adaptive.enabled()
                ? Optional.of(new AdaptiveWindow.Settings(Math.min(adaptive.minWindow(), maxInFlight), maxInFlight,
                adaptive.waitingThreshold().orElse(sizing.headroom()), adaptive.shrinkAfter()))
                : Optional.empty();
        return new WorkerSettings(config.tier(), taskArn, maxInFlight, sizing, config.waitTime(), visibility,
                new AttemptPolicy(maxReceiveCount), modelTimeout, retry.maxCalls(),
                Backoff.exponential(retry.initialBackoff(), retry.maxBackoff()),
                Backoff.exponential(retry.requeueDelay(), retry.maxRequeueDelay()), heartbeat, config.drainGrace(),
                window, adaptive.interval(), tiers, WorkerRetries.of(retry));
    }

    /** A copy with another window size (the adaptive maximum follows). */
    public WorkerSettings withMaxInFlight(int max) {
        Optional<AdaptiveWindow.Settings> window = adaptive.map(a -> new AdaptiveWindow.Settings(
                Math.min(a.min(), max), max, a.waitingThreshold(), a.shrinkAfter()));
        return new WorkerSettings(tier, taskArn, max, windowSizing, waitTime, visibilityTimeout, attempts, modelTimeout,
                maxCalls, callBackoff, requeueBackoff, heartbeat, drainGrace, window, adaptiveInterval, tiers, retries);
    }

    /**
     * A copy for a model server running {@code slots} sequences, with the window and the adaptive threshold that
     * follow from them ({@link WindowSizing}).
     */
    public WorkerSettings withServerSlots(int slots) {
        WindowSizing sizing = new WindowSizing(slots);
        Optional<AdaptiveWindow.Settings> window = adaptive.map(a -> new AdaptiveWindow.Settings(
                Math.min(a.min(), sizing.window()), sizing.window(), sizing.headroom(), a.shrinkAfter()));
        return new WorkerSettings(tier, taskArn, sizing.window(), sizing, waitTime, visibilityTimeout, attempts,
                modelTimeout, maxCalls, callBackoff, requeueBackoff, heartbeat, drainGrace, window, adaptiveInterval,
                tiers, retries);
    }

    /** A copy serving another tier of the same catalogue. */
    public WorkerSettings withTier(Tier other) {
        return new WorkerSettings(other, taskArn, maxInFlight, windowSizing, waitTime, visibilityTimeout, attempts,
                modelTimeout, maxCalls, callBackoff, requeueBackoff, heartbeat, drainGrace, adaptive, adaptiveInterval,
                tiers, retries);
    }

    /** A copy for a queue with another visibility timeout (the heartbeat follows). */
    public WorkerSettings withVisibilityTimeout(Duration visibility) {
        return new WorkerSettings(tier, taskArn, maxInFlight, windowSizing, waitTime, visibility, attempts,
                modelTimeout, maxCalls, callBackoff, requeueBackoff, HeartbeatSchedule.forVisibility(visibility),
                drainGrace, adaptive, adaptiveInterval, tiers, retries);
    }

    /** A copy for another task (tests and benchmarks run several workers in one JVM). */
    public WorkerSettings withTaskArn(String task) {
        return new WorkerSettings(tier, task, maxInFlight, windowSizing, waitTime, visibilityTimeout, attempts,
                modelTimeout, maxCalls, callBackoff, requeueBackoff, heartbeat, drainGrace, adaptive, adaptiveInterval,
                tiers, retries);
    }

        /** A copy with another long-poll wait. */
    public WorkerSettings withWaitTime(Duration wait) {
        return new WorkerSettings(tier, taskArn, maxInFlight, windowSizing, wait, visibilityTimeout, attempts,
                modelTimeout, maxCalls, callBackoff, requeueBackoff, heartbeat, drainGrace, adaptive, adaptiveInterval,
                tiers, retries);
    }

    /** A copy without the adaptive window. */
    public WorkerSettings withoutAdaptiveWindow() {
        return new WorkerSettings(tier, taskArn, maxInFlight, windowSizing, waitTime, visibilityTimeout, attempts,
                modelTimeout, maxCalls, callBackoff, requeueBackoff, heartbeat, drainGrace, Optional.empty(),
                adaptiveInterval, tiers, retries);
    }
}
