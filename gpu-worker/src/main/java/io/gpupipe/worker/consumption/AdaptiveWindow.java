package io.gpupipe.worker.consumption;

/**
 * Sizes the worker's in-flight window from the model server's own queue: while more than {@code waitingThreshold}
 * requests wait inside the server for {@code shrinkAfter} samples in a row, the window shrinks by a quarter (at
 * least one, never below {@code min}) so that messages the server cannot batch stay in SQS for other tasks; each
 * sample with an empty server queue grows it back by one, up to {@code max}. Not thread-safe: one sampler owns it.
 */
public final class AdaptiveWindow {
    private final Settings settings;
    private int limit;
    private int highStreak;

    public AdaptiveWindow(Settings settings) {
        this.settings = settings;
        this.limit = settings.max();
    }

    /** Bounds and thresholds of the controller. */
    public record Settings(int min, int max, int waitingThreshold, int shrinkAfter) {
        public Settings {
            if (min < 1 || max < min) {
                throw new IllegalArgumentException("need 1 <= min <= max, got " + min + " and " + max);
            }
            if (waitingThreshold < 0 || shrinkAfter < 1) {
                throw new IllegalArgumentException("waitingThreshold >= 0 and shrinkAfter >= 1 required");
            }
        }
    }

    public int limit() {
        return limit;
    }

    /** Takes one sample of the server's load and returns the window limit to use from now on. */
    public int observe(ServerLoad load) {
        if (load.waiting() > settings.waitingThreshold()) {
            highStreak++;
            if (highStreak >= settings.shrinkAfter()) {
                limit = Math.max(settings.min(), Math.min(limit - 1, limit * 3 / 4));
                highStreak = 0;
            }
        } else {
            highStreak = 0;
            if (load.waiting() == 0) {
                limit = Math.min(settings.max(), limit + 1);
            }
        }
        return limit;
    }
}
