package io.gpupipe.adapters.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.QueueAttributes;
import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.observability.TraceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The tier queue over SQS as its consumer (the worker) uses it (AWS SDK v2: the client Quarkus manages, or any). */
public final class SqsTierQueue implements TierQueue {
    private static final int MAX_REASON_CHARS = 1024;

    private final SqsClient sqs;
    private final String queueUrl;
    private final Optional<String> configuredDlqUrl;
    private volatile String dlqUrl;

    public SqsTierQueue(SqsClient sqs, String queueUrl, Optional<String> dlqUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.configuredDlqUrl = dlqUrl;
        this.dlqUrl = dlqUrl.orElse(null);
    }

    @Override
    public String queueUrl() {
        return queueUrl;
    }

    @Override
    public QueueAttributes attributes() {
        Map<QueueAttributeName, String> attributes = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl)
                .attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT, QueueAttributeName.REDRIVE_POLICY))
                .attributes();
        Duration visibility = Duration.ofSeconds(Long.parseLong(
                attributes.getOrDefault(QueueAttributeName.VISIBILITY_TIMEOUT, "30")));
        Optional<Integer> maxReceiveCount = Optional.empty();
        String redrive = attributes.get(QueueAttributeName.REDRIVE_POLICY);
        if (redrive != null && !redrive.isBlank()) {
            JsonNode policy = JobJson.read(redrive, JsonNode.class);
            maxReceiveCount = Optional.of(policy.path("maxReceiveCount").asInt(0)).filter(n -> n > 0);
            String arn = policy.path("deadLetterTargetArn").asText("");
            if (configuredDlqUrl.isEmpty() && !arn.isEmpty()) {
                String name = arn.substring(arn.lastIndexOf(':') + 1);
                dlqUrl = sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
            }
        }
        return new QueueAttributes(visibility, maxReceiveCount, Optional.ofNullable(dlqUrl));
    }

    @Override
    public List<QueueMessage> receive(int max, Duration wait) {
        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(max)
                .waitTimeSeconds((int) wait.toSeconds())
                .messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT,
                        MessageSystemAttributeName.SENT_TIMESTAMP, MessageSystemAttributeName.AWS_TRACE_HEADER,
                        MessageSystemAttributeName.MESSAGE_GROUP_ID)
                .messageAttributeNames("All")).messages();
        List<QueueMessage> received = new ArrayList<>(messages.size());
        for (Message m : messages) {
            Map<MessageSystemAttributeName, String> system = m.attributes();
            int receiveCount = Integer.parseInt(system.getOrDefault(
                    MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "1"));
            String sent = system.get(MessageSystemAttributeName.SENT_TIMESTAMP);
            Instant sentAt = sent == null ? null : Instant.ofEpochMilli(Long.parseLong(sent));
            received.add(new QueueMessage(m.messageId(), m.receiptHandle(), m.body(), receiveCount, sentAt,
                    traceparent(m), system.get(MessageSystemAttributeName.MESSAGE_GROUP_ID), seal(m)));
        }
        return received;
    }

    /** The message's seal attribute, null when it has none; judged by the worker, not here. */
    private static String seal(Message m) {
        MessageAttributeValue attribute = m.messageAttributes().get(MessageAttributes.SEAL);
        return attribute == null ? null : attribute.stringValue();
    }

    /**
     * The message's W3C traceparent attribute (set by the router), else the context of its AWSTraceHeader system
     * attribute (a producer traced by X-Ray only), else null: the worker then starts a new trace.
     */
    private static String traceparent(Message m) {
        MessageAttributeValue attribute = m.messageAttributes().get(MessageAttributes.TRACEPARENT);
        Optional<TraceContext> trace = TraceContext.fromTraceparent(attribute == null ? null : attribute.stringValue());
        if (trace.isEmpty()) {
            trace = TraceContext.fromAwsTraceHeader(m.attributes().get(MessageSystemAttributeName.AWS_TRACE_HEADER));
        }
        return trace.map(TraceContext::traceparent).orElse(null);
    }

    @Override
    public void delete(QueueMessage message) {
        sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(message.receiptHandle()));
    }

    @Override
    public List<QueueMessage> delete(List<QueueMessage> messages) {
        List<QueueMessage> failed = new ArrayList<>();
        for (List<QueueMessage> chunk : SqsBatches.groups(messages)) {
            List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int i = 0; i < chunk.size(); i++) {
                entries.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(i))
                        .receiptHandle(chunk.get(i).receiptHandle()).build());
            }
            sqs.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(entries)).failed()
                    .forEach(f -> failed.add(chunk.get(Integer.parseInt(f.id()))));
        }
        return failed;
    }

    @Override
    public void changeVisibility(QueueMessage message, Duration timeout) {
        sqs.changeMessageVisibility(b -> b.queueUrl(queueUrl).receiptHandle(message.receiptHandle())
                .visibilityTimeout((int) timeout.toSeconds()));
    }

    @Override
    public List<QueueMessage> changeVisibility(List<QueueMessage> messages, Duration timeout) {
        List<QueueMessage> failed = new ArrayList<>();
        for (List<QueueMessage> chunk : SqsBatches.groups(messages)) {
            List<ChangeMessageVisibilityBatchRequestEntry> entries = new ArrayList<>();
            for (int i = 0; i < chunk.size(); i++) {
                entries.add(ChangeMessageVisibilityBatchRequestEntry.builder().id(Integer.toString(i))
                        .receiptHandle(chunk.get(i).receiptHandle()).visibilityTimeout((int) timeout.toSeconds())
                        .build());
            }
            ChangeMessageVisibilityBatchResponse response = sqs.changeMessageVisibilityBatch(b -> b
                    .queueUrl(queueUrl).entries(entries));
            response.failed().forEach(f -> failed.add(chunk.get(Integer.parseInt(f.id()))));
        }
        return failed;
    }

    @Override
    public void sendToDeadLetterQueue(QueueMessage message, String reason) {
        if (dlqUrl == null) {
            throw new IllegalStateException("no dead-letter queue: set gpupipe.worker.dlq-url or give "
                    + queueUrl + " a redrive policy");
        }
        String shortReason = reason.length() <= MAX_REASON_CHARS ? reason
                : reason.substring(0, MAX_REASON_CHARS - 3) + "...";
        // the message keeps its group (its owner), so a redrive back to a tier queue stays fair, and its seal, so the
        // dead-letter function and a redriven delivery judge its owner as the worker did
        Map<String, MessageAttributeValue> attributes = new HashMap<>();
        attributes.put(MessageAttributes.ERROR_REASON, stringAttribute(shortReason));
        attributes.put(MessageAttributes.ORIGINAL_QUEUE, stringAttribute(queueUrl));
        if (message.seal() != null) {
            attributes.put(MessageAttributes.SEAL, stringAttribute(message.seal()));
        }
        sqs.sendMessage(b -> b.queueUrl(dlqUrl).messageBody(message.body()).messageGroupId(message.messageGroupId())
                .messageAttributes(attributes));
    }

    private static MessageAttributeValue stringAttribute(String value) {
        return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
    }
}
