package io.gpupipe.worker.support;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * Awaitility, named and paced for these tests: the first check at once (Awaitility's default waits one poll interval
 * before it, 100 ms on every wait, most of which are already true), then every 50 ms against the local endpoints.
 */
public final class Polling {
    static final Duration INTERVAL = Duration.ofMillis(50);

    private Polling() {
    }

    /** A wait for {@code what}, which names it when it times out; add {@code atMost(..)} and a condition. */
    public static ConditionFactory await(String what) {
        return Awaitility.await(what).pollDelay(Duration.ZERO).pollInterval(INTERVAL);
    }
}
