package io.gpupipe.deadletter;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.gpupipe.model.MessageAttributes;
import jakarta.inject.Named;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * SQS event source on the job DLQ, with {@code FunctionResponseTypes: [ReportBatchItemFailures]}: every message
 * that must stay (unreadable, or S3 failing) is returned in {@code batchItemFailures}, so Lambda deletes only the
 * settled ones and the rest reappear after the DLQ's visibility timeout (AWS Lambda developer guide, "Handling
 * errors for an SQS event source": with partial batch responses only the reported messages become visible again).
 */
@Named("dead-letter")
public class DeadLetterHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
    static final String RECEIVE_COUNT = "ApproximateReceiveCount";

    private final DeadLetterService service;

    DeadLetterHandler(DeadLetterService service) {
        this.service = service;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        List<SQSBatchResponse.BatchItemFailure> kept = new ArrayList<>();
        List<SQSEvent.SQSMessage> records = event == null || event.getRecords() == null ? List.of()
                : event.getRecords();
        for (SQSEvent.SQSMessage message : records) {
            Settlement settlement = service.settle(message.getMessageId(), message.getBody(),
                    receiveCount(message.getAttributes()), errorReason(message.getMessageAttributes()));
            if (!settlement.deletable()) {
                kept.add(new SQSBatchResponse.BatchItemFailure(message.getMessageId()));
            }
        }
        return new SQSBatchResponse(kept);
    }

    private static int receiveCount(Map<String, String> attributes) {
        try {
            return attributes == null ? 0 : Integer.parseInt(attributes.getOrDefault(RECEIVE_COUNT, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String errorReason(Map<String, SQSEvent.MessageAttribute> attributes) {
        SQSEvent.MessageAttribute reason = attributes == null ? null
                : attributes.get(MessageAttributes.ERROR_REASON);
        return reason == null ? null : reason.getStringValue();
    }
}
