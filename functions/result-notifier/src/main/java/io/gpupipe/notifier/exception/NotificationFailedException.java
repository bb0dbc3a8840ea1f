package io.gpupipe.notifier.exception;

/** Thrown to make Lambda retry the whole S3 event: every record in it failed with a retryable error. */
public class NotificationFailedException extends RuntimeException {
    public NotificationFailedException(String message) {
        super(message);
    }
}
