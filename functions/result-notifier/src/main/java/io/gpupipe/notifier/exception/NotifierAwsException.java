package io.gpupipe.notifier.exception;

/** An AWS call failed; {@code retryable} when a later attempt may succeed (5xx, throttling, network). */
public class NotifierAwsException extends RuntimeException {
    private final boolean retryable;

    public NotifierAwsException(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }
}
