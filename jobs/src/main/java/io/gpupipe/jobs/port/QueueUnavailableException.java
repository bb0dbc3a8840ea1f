package io.gpupipe.jobs.port;

/** A tier queue refused the message or could not be reached; the job was not enqueued. */
public class QueueUnavailableException extends RuntimeException {
    public QueueUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
