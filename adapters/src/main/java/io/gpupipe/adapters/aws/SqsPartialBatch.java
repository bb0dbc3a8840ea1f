package io.gpupipe.adapters.aws;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The partial batch response of a function on an SQS event source with {@code FunctionResponseTypes:
 * [ReportBatchItemFailures]}: every message not settled is returned in {@code batchItemFailures}, so Lambda deletes
 * only the settled ones and the rest reappear after the queue's visibility timeout (AWS Lambda developer guide,
 * "Handling errors for an SQS event source": with partial batch responses only the reported messages become visible
 * again).
 */
public final class SqsPartialBatch {
    private SqsPartialBatch() {
    }

    /**
     * Settles each record of {@code event} in order ({@code settle} answers false to keep one); the response naming
     * those kept. An event without records settles nothing.
     */
    public static SQSBatchResponse settle(SQSEvent event, Predicate<SQSEvent.SQSMessage> settle) {
        List<SQSBatchResponse.BatchItemFailure> kept = new ArrayList<>();
        List<SQSEvent.SQSMessage> records = event == null || event.getRecords() == null ? List.of()
                : event.getRecords();
        for (SQSEvent.SQSMessage message : records) {
            if (!settle.test(message)) {
                kept.add(new SQSBatchResponse.BatchItemFailure(message.getMessageId()));
            }
        }
        return new SQSBatchResponse(kept);
    }
}
