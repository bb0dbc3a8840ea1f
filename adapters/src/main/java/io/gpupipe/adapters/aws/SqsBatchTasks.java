package io.gpupipe.adapters.aws;

import io.gpupipe.jobs.port.BatchTasks;
import io.gpupipe.jobs.port.QueueUnavailableException;
import io.gpupipe.model.batch.BatchTask;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/** {@link BatchTasks} on the batch queue: one small JSON message per task, batched by 10 (SendMessageBatch). */
public final class SqsBatchTasks implements BatchTasks {
    private final SqsClient sqs;
    private final String queueUrl;

    public SqsBatchTasks(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    @Override
    public void send(BatchTask task) {
        try {
            sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(task.toJson()));
        } catch (SdkException e) {
            throw new QueueUnavailableException("cannot send " + task.toJson() + " to the batch queue: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void sendAll(List<BatchTask> tasks) {
        for (List<BatchTask> group : SqsBatches.groups(tasks)) {
            List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int i = 0; i < group.size(); i++) {
                entries.add(SendMessageBatchRequestEntry.builder().id(Integer.toString(i))
                        .messageBody(group.get(i).toJson()).build());
            }
            SendMessageBatchResponse response;
            try {
                response = sqs.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
            } catch (SdkException e) {
                throw new QueueUnavailableException("cannot send " + group.size() + " batch tasks: "
                        + e.getMessage(), e);
            }
            if (!response.failed().isEmpty()) {
                throw new QueueUnavailableException("the batch queue refused " + response.failed().size() + " of "
                        + group.size() + " tasks: " + response.failed().get(0).message(), null);
            }
        }
    }
}
