package io.gpupipe.worker;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * Writes a terminal object with a few retries beyond the SDK's own: once inference has run, a brief S3 outage must
 * cost a retried PUT, not another model call (or, on the last receive, the client's result).
 */
final class ResultWrites {
    private static final Logger LOG = Logger.getLogger(ResultWrites.class);
    static final int ATTEMPTS = 4;
    private static final Duration FIRST_PAUSE = Duration.ofMillis(250);

    private ResultWrites() {
    }

    /** Runs the create-only write until it answers; rethrows the last failure, or at once when interrupted. */
    static boolean persistently(String what, BooleanSupplier write) {
        long pause = FIRST_PAUSE.toMillis();
        for (int attempt = 1; ; attempt++) {
            try {
                return write.getAsBoolean();
            } catch (RuntimeException e) {
                if (attempt >= ATTEMPTS || Thread.currentThread().isInterrupted()) {
                    throw e;
                }
                LOG.warnf("writing %s failed (attempt %d of %d), retrying in %d ms: %s", what, attempt, ATTEMPTS,
                        pause, e.getMessage());
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                pause *= 2;
            }
        }
    }
}
