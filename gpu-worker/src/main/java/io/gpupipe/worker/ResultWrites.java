package io.gpupipe.worker;

import io.gpupipe.adapters.aws.AwsFailures;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.model.retry.RetryPolicy;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Writes a terminal object again when S3 stays unavailable for longer than the SDK's own attempts: once inference has
 * run, a brief outage must cost a retried PUT, not another model call (or, on the last receive, the client's
 * result). Only a failure a later attempt may fix is retried here (5xx, throttling, the network): a 409 was already
 * retried by the store, and a client error (403, a bad request) fails the same way every time.
 */
final class ResultWrites {
    private static final Logger LOG = Logger.getLogger(ResultWrites.class);

    private ResultWrites() {
    }

    /** Runs the create-only write until it answers; rethrows the last failure, or at once when interrupted. */
    static boolean persistently(RetryPolicy policy, String what, BooleanSupplier write) {
        Retry retry = policy.start();
        while (true) {
            try {
                return write.getAsBoolean();
            } catch (RuntimeException e) {
                if (!mayPass(e)) {
                    throw e;
                }
                LOG.warnf("writing %s failed (attempt %d of %d): %s", what, retry.attempt(), retry.maxAttempts(),
                        e.getMessage());
                if (!retry.another()) {
                    throw e;
                }
            }
        }
    }

    /** True for a failure that is no client error: an outage, throttling, or an unreachable endpoint. */
    private static boolean mayPass(RuntimeException e) {
        if (e instanceof StoreUnavailableException unavailable) {
            return unavailable.retryable();
        }
        return e instanceof SdkException && AwsFailures.isRetryable(e);
    }
}
