package io.gpupipe.jobs.port;

/**
 * SQS refused the message with a client error (4xx other than throttling): a bug in how messages are built
 * or a misconfigured queue, never an outage and never the client's fault, so it is a 500 that is not retryable.
 */
public class QueueRejectedMessageException extends RuntimeException {
    public QueueRejectedMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
