package io.gpupipe.localstack.console;

import java.time.Instant;
import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;

/**
 * The DLQ redrive, through SQS's own message move tasks ({@code StartMessageMoveTask}, {@code ListMessageMoveTasks};
 * ElasticMQ 1.7.1 implements both), as the AWS console's "Start DLQ redrive" does. The destination is always named:
 * without one, SQS moves each message back to the queue it was dead-lettered from, but ElasticMQ 1.7.1 moves all of
 * them to the first queue whose redrive policy names the DLQ, and every tier queue shares this one DLQ.
 */
public final class Redrive {
    private final SqsClient sqs;
    private final String dlqArn;

    /** One move task as {@code ListMessageMoveTasks} reports it. */
    public record MoveTask(String status, String destinationArn, Long moved, Long toMove, String failureReason,
                           Instant startedAt) {
        static MoveTask of(ListMessageMoveTasksResultEntry entry) {
            return new MoveTask(entry.status(), entry.destinationArn(), entry.approximateNumberOfMessagesMoved(),
                    entry.approximateNumberOfMessagesToMove(), entry.failureReason(),
                    entry.startedTimestamp() == null ? null : Instant.ofEpochMilli(entry.startedTimestamp()));
        }
    }

    public Redrive(SqsClient sqs, String dlqArn) {
        this.sqs = sqs;
        this.dlqArn = dlqArn;
    }

    /** Starts moving every message on the DLQ to {@code destinationArn}; the task's handle. */
    public String start(String destinationArn) {
        return sqs.startMessageMoveTask(b -> b.sourceArn(dlqArn).destinationArn(destinationArn)).taskHandle();
    }

    /** The DLQ's latest move tasks, newest first (SQS keeps up to 10). */
    public List<MoveTask> tasks() {
        return sqs.listMessageMoveTasks(b -> b.sourceArn(dlqArn).maxResults(10)).results().stream()
                .map(MoveTask::of).toList();
    }
}
