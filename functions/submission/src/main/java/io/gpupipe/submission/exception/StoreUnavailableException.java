package io.gpupipe.submission.exception;

/** The results bucket could not be read or written (S3 unreachable, throttling, access denied). */
public class StoreUnavailableException extends RuntimeException {
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
