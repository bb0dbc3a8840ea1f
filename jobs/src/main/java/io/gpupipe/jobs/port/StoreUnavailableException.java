package io.gpupipe.jobs.port;

/** The results bucket could not be read or written (S3 unreachable, throttling, access denied). */
public class StoreUnavailableException extends RuntimeException {
    private final boolean retryable;

    /** A failure a later attempt may get past (contention, an interruption, the network). */
    public StoreUnavailableException(String message, Throwable cause) {
        this(message, cause, true);
    }

    /** {@code retryable}: false when the same request will fail again (the adapter read the store's answer). */
    public StoreUnavailableException(String message, Throwable cause, boolean retryable) {
        super(message, cause);
        this.retryable = retryable;
    }

    /** A later attempt may succeed (5xx, throttling, the network); false for a client error such as access denied. */
    public boolean retryable() {
        return retryable;
    }
}
