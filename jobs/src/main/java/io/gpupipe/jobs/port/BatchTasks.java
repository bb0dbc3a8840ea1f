package io.gpupipe.jobs.port;

import io.gpupipe.model.batch.BatchTask;
import java.util.List;

/**
 * The batch queue, where each step of a batch's life waits for the batch function. Sending fails with
 * {@link io.gpupipe.jobs.port.QueueUnavailableException} (every task is idempotent: resend on doubt).
 */
public interface BatchTasks {
    void send(BatchTask task);

    /** Sends every task (SendMessageBatch, 10 per call); throws unless all were sent. */
    void sendAll(List<BatchTask> tasks);
}
