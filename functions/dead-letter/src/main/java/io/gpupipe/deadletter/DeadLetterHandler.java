package io.gpupipe.deadletter;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.gpupipe.adapters.aws.SqsPartialBatch;
import io.gpupipe.model.job.MessageAttributes;
import jakarta.inject.Named;
import java.util.Map;

/**
 * SQS event source on the job DLQ, with {@code FunctionResponseTypes: [ReportBatchItemFailures]}: every message
 * that must stay (unreadable, or S3 failing) is kept ({@link SqsPartialBatch}) and reappears after the DLQ's
 * visibility timeout.
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
        return SqsPartialBatch.settle(event, message -> service.settle(message.getMessageId(), message.getBody(),
                stringAttribute(message.getMessageAttributes(), MessageAttributes.SEAL),
                receiveCount(message.getAttributes()),
                stringAttribute(message.getMessageAttributes(), MessageAttributes.ERROR_REASON)).deletable());
    }

    private static int receiveCount(Map<String, String> attributes) {
        try {
            return attributes == null ? 0 : Integer.parseInt(attributes.getOrDefault(RECEIVE_COUNT, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String stringAttribute(Map<String, SQSEvent.MessageAttribute> attributes, String name) {
        SQSEvent.MessageAttribute attribute = attributes == null ? null : attributes.get(name);
        return attribute == null ? null : attribute.getStringValue();
    }
}
