package io.gpupipe.adapters;

import java.time.Duration;
import java.util.List;

/** The tier queue as a consumer (the worker) uses it (SQS behind {@code io.gpupipe.adapters.aws.SqsTierQueue}). */
public interface TierQueue {

    String queueUrl();

    QueueAttributes attributes();

    /** Long-polls for up to {@code max} (≤ 10) messages, waiting at most {@code wait}. */
    List<QueueMessage> receive(int max, Duration wait);

    void delete(QueueMessage message);

    /** Deletes several messages in batches of 10 (DeleteMessageBatch); returns those SQS did not delete. */
    List<QueueMessage> delete(List<QueueMessage> messages);

    /** Sets when one message becomes visible again ({@code Duration.ZERO}: at once). */
    void changeVisibility(QueueMessage message, Duration timeout);

    /** Sets the visibility of several messages in batches of 10; returns those SQS did not change. */
    List<QueueMessage> changeVisibility(List<QueueMessage> messages, Duration timeout);

    /** Sends the raw body to the DLQ with {@code ErrorReason} and {@code OriginalQueue} attributes. */
    void sendToDeadLetterQueue(QueueMessage message, String reason);
}
