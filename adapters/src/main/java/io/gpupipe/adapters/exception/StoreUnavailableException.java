package io.gpupipe.adapters.exception;

import io.gpupipe.adapters.aws.AwsFailures;

/** The results bucket could not be read or written (S3 unreachable, throttling, access denied). */
public class StoreUnavailableException extends RuntimeException {
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A later attempt may succeed (5xx, throttling, the network); false for a client error such as access denied. */
    public boolean retryable() {
        return AwsFailures.isRetryable(getCause());
    }
}
