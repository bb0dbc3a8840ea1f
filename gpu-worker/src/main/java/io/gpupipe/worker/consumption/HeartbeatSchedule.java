package io.gpupipe.worker.consumption;

import java.time.Duration;
import java.time.Instant;

/**
 * When to extend an in-flight message's visibility: the heartbeat ticks every {@code interval} and extends (to
 * {@code extension} from now) every message that would otherwise become visible within two ticks, so a missed or
 * slow tick still leaves one more chance before another worker could receive it.
 */
public record HeartbeatSchedule(Duration interval, Duration extension) {
    public static final Duration MIN_INTERVAL = Duration.ofMillis(200);
    public static final Duration MAX_INTERVAL = Duration.ofSeconds(30);
    /** SQS's limit for one ChangeMessageVisibility call. */
    public static final Duration MAX_EXTENSION = Duration.ofHours(12);

    public HeartbeatSchedule {
        if (interval == null || extension == null || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive");
        }
        if (extension.compareTo(interval.multipliedBy(3)) < 0) {
            throw new IllegalArgumentException("extension " + extension + " must be at least three heartbeat "
                    + "intervals (" + interval + ") or a message could lapse between ticks");
        }
        if (extension.compareTo(MAX_EXTENSION) > 0 || extension.toMillis() % 1000 != 0) {
            throw new IllegalArgumentException("extension must be whole seconds up to 12 h, got " + extension);
        }
    }

    /**
     * The default for a queue whose visibility timeout is {@code visibility}: tick every quarter of it (between
     * 200 ms and 30 s) and extend by the visibility timeout itself.
     */
    public static HeartbeatSchedule forVisibility(Duration visibility) {
        Duration quarter = visibility.dividedBy(4);
        Duration interval = quarter.compareTo(MIN_INTERVAL) < 0 ? MIN_INTERVAL
                : quarter.compareTo(MAX_INTERVAL) > 0 ? MAX_INTERVAL : quarter;
        return new HeartbeatSchedule(interval, visibility);
    }

    /** True when a message visible again at {@code visibleUntil} must be extended at this tick. */
    public boolean isDue(Instant visibleUntil, Instant now) {
        return Duration.between(now, visibleUntil).compareTo(interval.multipliedBy(2)) <= 0;
    }

    /** When an extension made at {@code now} lapses. */
    public Instant extendedUntil(Instant now) {
        return now.plus(extension);
    }

    /** The extension in whole seconds, as ChangeMessageVisibility takes it. */
    public int extensionSeconds() {
        return (int) extension.toSeconds();
    }
}
