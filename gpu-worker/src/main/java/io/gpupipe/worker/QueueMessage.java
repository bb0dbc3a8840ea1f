package io.gpupipe.worker;

import java.time.Instant;

/**
 * One received SQS message: its body as sent, its receipt handle for this delivery, how many times SQS has
 * delivered it ({@code ApproximateReceiveCount}) and when it was sent ({@code SentTimestamp}).
 */
public record QueueMessage(String messageId, String receiptHandle, String body, int receiveCount, Instant sentAt) {
}
