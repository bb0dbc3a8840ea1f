package io.gpupipe.batch;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.gpupipe.adapters.aws.SqsPartialBatch;
import io.gpupipe.model.batch.BatchTask;
import jakarta.inject.Named;
import org.jboss.logging.Logger;

/**
 * SQS event source on the batch queue, with {@code FunctionResponseTypes: [ReportBatchItemFailures]}: each message is
 * one step of a batch ({@link BatchTask}); a step that fails (S3 or SQS unavailable, a chunk whose jobs could not all
 * be enqueued) is kept ({@link SqsPartialBatch}), so only it returns after the visibility timeout and, after
 * the queue's maxReceiveCount, reaches the batch DLQ. Every step is idempotent, so a redelivery does no harm.
 */
@Named("batch")
public class BatchHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
    private static final Logger LOG = Logger.getLogger(BatchHandler.class);

    private final BatchSteps steps;

    BatchHandler(BatchSteps steps) {
        this.steps = steps;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        return SqsPartialBatch.settle(event, this::run);
    }

    /** Runs the step; false keeps the message. */
    private boolean run(SQSEvent.SQSMessage message) {
        try {
            steps.run(BatchTask.read(message.getBody()));
            return true;
        } catch (IllegalArgumentException e) {
            // kept, so that it reaches the batch DLQ (alarmed) instead of vanishing
            LOG.errorf("batch message %s is no batch task, kept for the DLQ: %s", message.getMessageId(),
                    e.getMessage());
            return false;
        } catch (RuntimeException e) {
            LOG.warnf(e, "batch message %s failed, retried after the visibility timeout: %s",
                    message.getMessageId(), e.getMessage());
            return false;
        }
    }
}
