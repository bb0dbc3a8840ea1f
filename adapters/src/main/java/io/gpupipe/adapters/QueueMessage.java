package io.gpupipe.adapters;

import java.time.Instant;

/**
 * One received SQS message: its body as sent, its receipt handle for this delivery, how many times SQS has
 * delivered it ({@code ApproximateReceiveCount}), when it was sent ({@code SentTimestamp}) and the trace it belongs
 * to (its {@code traceparent} attribute, or one read from {@code AWSTraceHeader}; null when it carries neither), its
 * {@code MessageGroupId} (the owner of a job message: the tenant SQS fair queues balance by; null when it has
 * none), and its seal ({@link io.gpupipe.model.job.MessageAttributes#SEAL}: the router's or the batch function's proof
 * that they sent it; null when it carries none).
 */
public record QueueMessage(String messageId, String receiptHandle, String body, int receiveCount, Instant sentAt,
                           String traceparent, String messageGroupId, String seal) {

    /** A message without a seal. */
    public QueueMessage(String messageId, String receiptHandle, String body, int receiveCount, Instant sentAt,
                        String traceparent, String messageGroupId) {
        this(messageId, receiptHandle, body, receiveCount, sentAt, traceparent, messageGroupId, null);
    }

    /** A message of no message group. */
    public QueueMessage(String messageId, String receiptHandle, String body, int receiveCount, Instant sentAt,
                        String traceparent) {
        this(messageId, receiptHandle, body, receiveCount, sentAt, traceparent, null);
    }

    /** A message that carries no trace context. */
    public QueueMessage(String messageId, String receiptHandle, String body, int receiveCount, Instant sentAt) {
        this(messageId, receiptHandle, body, receiveCount, sentAt, null);
    }
}
