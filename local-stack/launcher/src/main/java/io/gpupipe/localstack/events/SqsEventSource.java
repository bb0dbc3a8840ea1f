package io.gpupipe.localstack.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.FunctionInvoker;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.model.retry.RetryPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A Lambda SQS event source mapping with {@code FunctionResponseTypes: [ReportBatchItemFailures]}: long-polls the
 * queue (batch of up to 10), invokes the function with an SQS event in AWS's shape, then deletes every message the
 * response does not list in {@code batchItemFailures}. A failed invocation, or a response that is not a valid batch
 * response, deletes nothing: the whole batch returns after the queue's visibility timeout, as in AWS (Lambda
 * developer guide, "Handling errors for an SQS event source").
 */
public final class SqsEventSource implements AutoCloseable {
    /** SQS's largest receive, the event source mapping's default batch size. */
    public static final int DEFAULT_BATCH_SIZE = 10;
    private static final int WAIT_SECONDS = 5;
    /** Polls again a second after a failed receive, as long as the source runs (stopped only when interrupted). */
    private static final RetryPolicy POLL_FAILURES = RetryPolicy.exponential(RetryPolicy.UNLIMITED,
            Duration.ofSeconds(1), Duration.ofSeconds(1));

    private final String label;
    private final FunctionInvoker function;
    private final SqsClient sqs;
    private final String queueUrl;
    private final String queueArn;
    private final Console console;
    private final int batchSize;
    private final Thread poller;
    private final AtomicLong deleted = new AtomicLong();
    private final AtomicLong kept = new AtomicLong();
    private final List<Observer> observers = new CopyOnWriteArrayList<>();
    private volatile boolean running = true;

    /** Told about each batch once it is settled: the messages, and the ids that stay on the queue. */
    @FunctionalInterface
    public interface Observer {
        void settled(List<Message> batch, Set<String> kept);
    }

    private SqsEventSource(String label, FunctionInvoker function, LocalAws aws, String queueName, Console console,
                           int batchSize) {
        this.label = label;
        this.batchSize = batchSize;
        this.function = function;
        this.sqs = aws.newSqsClient();
        this.queueUrl = aws.queueUrl(queueName);
        this.queueArn = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        this.console = console;
        this.poller = new Thread(this::pollLoop, label + "-event-source");
        this.poller.setDaemon(true);
    }

    /** Starts polling {@code queueName} for {@code function}, up to 10 messages per invocation. */
    public static SqsEventSource start(String label, FunctionInvoker function, LocalAws aws, String queueName,
                                       Console console) {
        return start(label, function, aws, queueName, console, DEFAULT_BATCH_SIZE);
    }

    /** Starts polling {@code queueName} for {@code function}, up to {@code batchSize} messages per invocation. */
    public static SqsEventSource start(String label, FunctionInvoker function, LocalAws aws, String queueName,
                                       Console console, int batchSize) {
        SqsEventSource source = new SqsEventSource(label, function, aws, queueName, console, batchSize);
        source.poller.start();
        return source;
    }

    private void pollLoop() {
        Retry failures = POLL_FAILURES.start();
        while (running) {
            try {
                List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(batchSize)
                        .waitTimeSeconds(WAIT_SECONDS).messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                        .messageAttributeNames("All")).messages();
                failures.reset();
                if (!batch.isEmpty()) {
                    deliver(batch);
                }
            } catch (RuntimeException e) {
                if (running) {
                    console.component(label, "polling failed: " + e.getMessage());
                    if (!failures.another()) {
                        return;
                    }
                }
            }
        }
    }

    private void deliver(List<Message> batch) {
        Set<String> failures = invoke(batch);
        if (failures == null) {
            kept.addAndGet(batch.size());
            tell(batch, batch.stream().map(Message::messageId).collect(Collectors.toSet()));
            return;
        }
        List<DeleteMessageBatchRequestEntry> settled = batch.stream()
                .filter(m -> !failures.contains(m.messageId()))
                .map(m -> DeleteMessageBatchRequestEntry.builder().id(m.messageId()).receiptHandle(m.receiptHandle())
                        .build())
                .toList();
        if (!settled.isEmpty()) {
            sqs.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(settled));
        }
        deleted.addAndGet(settled.size());
        kept.addAndGet(batch.size() - settled.size());
        tell(batch, failures);
    }

    private void tell(List<Message> batch, Set<String> keptIds) {
        for (Observer observer : observers) {
            try {
                observer.settled(batch, keptIds);
            } catch (RuntimeException e) {
                console.component(label, "an observer failed: " + e);
            }
        }
    }

    /** Adds an observer of settled batches (the web console's view of the DLQ). */
    public void observe(Observer observer) {
        observers.add(observer);
    }

    /** The ids the function kept, or null when the invocation failed (every message stays). */
    private Set<String> invoke(List<Message> batch) {
        byte[] event = JobJson.write(event(queueArn, batch)).getBytes(StandardCharsets.UTF_8);
        try {
            LambdaFunction.Invocation result = function.invoke(event);
            Set<String> failures = result.ok() ? batchItemFailures(result.payload()) : null;
            if (failures == null) {
                console.component(label, "invocation failed; " + batch.size() + " message(s) return after the "
                        + "visibility timeout: " + new String(result.payload(), StandardCharsets.UTF_8));
            }
            return failures;
        } catch (IOException e) {
            console.component(label, "cannot invoke the function: " + e.getMessage());
            return null;
        }
    }

    /** The item identifiers of a batch response; null when it is not one (Lambda then fails the whole batch). */
    static Set<String> batchItemFailures(byte[] payload) {
        try {
            JsonNode response = JobJson.mapper().readTree(payload);
            Set<String> ids = new HashSet<>();
            JsonNode failures = response == null ? null : response.get("batchItemFailures");
            if (failures == null || failures.isNull()) {
                return ids;
            }
            for (JsonNode failure : failures) {
                JsonNode id = failure.get("itemIdentifier");
                if (id == null || !id.isTextual() || id.textValue().isEmpty()) {
                    return null;
                }
                ids.add(id.textValue());
            }
            return ids;
        } catch (IOException e) {
            return null;
        }
    }

    /** An SQS event as Lambda's event source mapping builds it. */
    static ObjectNode event(String queueArn, List<Message> batch) {
        ObjectNode event = JobJson.mapper().createObjectNode();
        var records = event.putArray("Records");
        for (Message m : batch) {
            ObjectNode record = records.addObject();
            record.put("messageId", m.messageId());
            record.put("receiptHandle", m.receiptHandle());
            record.put("body", m.body());
            ObjectNode attributes = record.putObject("attributes");
            m.attributesAsStrings().forEach(attributes::put);
            ObjectNode messageAttributes = record.putObject("messageAttributes");
            m.messageAttributes().forEach((name, value) -> messageAttributes.set(name, attribute(value)));
            record.put("md5OfBody", m.md5OfBody());
            record.put("eventSource", "aws:sqs");
            record.put("eventSourceARN", queueArn);
            record.put("awsRegion", LocalAws.REGION);
        }
        return event;
    }

    private static ObjectNode attribute(MessageAttributeValue value) {
        ObjectNode node = JobJson.mapper().createObjectNode();
        node.put("stringValue", value.stringValue());
        node.putArray("stringListValues");
        node.putArray("binaryListValues");
        node.put("dataType", value.dataType());
        return node;
    }

    /** Messages deleted after the function settled them. */
    public long deleted() {
        return deleted.get();
    }

    /** Messages left on the queue (reported as batch item failures, or in a failed invocation). */
    public long kept() {
        return kept.get();
    }

    @Override
    public void close() {
        running = false;
        poller.interrupt();
        try {
            poller.join(WAIT_SECONDS * 1000L + 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sqs.close();
    }
}
