package io.gpupipe.localstack.console;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Depth, in-flight and delayed counts of each tier queue and the DLQ, from {@code GetQueueAttributes} (one call per
 * queue), and the age of the oldest message where the console knows it: SQS reports no message ages (that is
 * CloudWatch's ApproximateAgeOfOldestMessage), so a tier queue's comes from the jobs the API queued and the DLQ's
 * from its messages' SentTimestamp.
 */
final class QueueWatch {
    private static final List<QueueAttributeName> COUNTS = List.of(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED);

    /** A queue the console shows: its tier (null for the DLQ). */
    record QueueRef(String name, String url, String arn, String tier) {
        boolean deadLetter() {
            return tier == null;
        }
    }

    /** One queue's figures; {@code oldestAgeSeconds} null when the console does not know it. */
    record QueueStats(String name, String tier, boolean deadLetter, long visible, long inFlight, long delayed,
                      Long oldestAgeSeconds) {
    }

    private final SqsClient sqs;
    private final List<QueueRef> queues;

    QueueWatch(SqsClient sqs, List<QueueRef> queues) {
        this.sqs = sqs;
        this.queues = List.copyOf(queues);
    }

    List<QueueRef> queues() {
        return queues;
    }

    /**
     * Each queue's figures; {@code oldestQueued} per tier and {@code oldestDeadLetter} give the ages at
     * {@code now}.
     */
    List<QueueStats> stats(Map<String, Instant> oldestQueued, Optional<Instant> oldestDeadLetter, Instant now) {
        List<QueueStats> stats = new ArrayList<>();
        for (QueueRef queue : queues) {
            Map<QueueAttributeName, String> counts = sqs.getQueueAttributes(b -> b.queueUrl(queue.url())
                    .attributeNames(COUNTS)).attributes();
            Optional<Instant> oldest = queue.deadLetter() ? oldestDeadLetter
                    : Optional.ofNullable(oldestQueued.get(queue.tier()));
            long visible = count(counts, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES);
            long inFlight = count(counts, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE);
            boolean empty = visible + inFlight == 0;
            stats.add(new QueueStats(queue.name(), queue.tier(), queue.deadLetter(), visible, inFlight,
                    count(counts, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED),
                    empty ? null : oldest.map(t -> Duration.between(t, now).toSeconds()).orElse(null)));
        }
        return stats;
    }

    private static long count(Map<QueueAttributeName, String> attributes, QueueAttributeName name) {
        try {
            return Long.parseLong(attributes.getOrDefault(name, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
