package io.gpupipe.localstack.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.model.JobJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The DLQ event source mapping against real ElasticMQ: deletes what the function settled, keeps the rest. */
class SqsEventSourceTest {
    private static LocalAws aws;
    private final Console console = new Console(new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8));

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
    }

    @AfterAll
    static void stop() {
        aws.close();
    }

    @Test
    void poll_shouldDeleteAllButTheReportedFailures_whenFunctionAnswersABatchResponse() throws Exception {
        // given: three messages, one of which the function keeps
        List<JsonNode> events = new CopyOnWriteArrayList<>();
        String dlq = aws.queueUrl(LocalAws.DLQ);
        try (SqsClient sqs = aws.newSqsClient()) {
            sqs.sendMessage(b -> b.queueUrl(dlq).messageBody("keep me").messageAttributes(Map.of("ErrorReason",
                    MessageAttributeValue.builder().dataType("String").stringValue("invalid_request").build())));
            sqs.sendMessage(b -> b.queueUrl(dlq).messageBody("settle 1"));
            sqs.sendMessage(b -> b.queueUrl(dlq).messageBody("settle 2"));

            // when
            try (SqsEventSource source = SqsEventSource.start("dlq-events", event -> {
                JsonNode tree = JobJson.mapper().readTree(event);
                events.add(tree);
                StringBuilder failures = new StringBuilder();
                for (JsonNode record : tree.get("Records")) {
                    if (record.get("body").asText().equals("keep me")) {
                        failures.append("{\"itemIdentifier\":\"").append(record.get("messageId").asText())
                                .append("\"}");
                    }
                }
                return new LambdaFunction.Invocation(true, false, ("{\"batchItemFailures\":[" + failures + "]}")
                        .getBytes(StandardCharsets.UTF_8));
            }, aws, LocalAws.DLQ, console)) {
                await("the three messages handled").atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(50)).until(() -> source.deleted() + source.kept() >= 3);

                // then: two deleted; the kept one is still on the queue (in flight until its visibility ends)
                assertThat(source.deleted()).isEqualTo(2);
                assertThat(source.kept()).isEqualTo(1);
            }
            Map<QueueAttributeName, String> attributes = sqs.getQueueAttributes(b -> b.queueUrl(dlq).attributeNames(
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
            assertThat(Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                    + Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)))
                    .isEqualTo(1);
        }
        // and the events had AWS's record shape
        JsonNode record = events.get(0).get("Records").get(0);
        assertThat(record.get("eventSource").asText()).isEqualTo("aws:sqs");
        assertThat(record.get("eventSourceARN").asText()).endsWith(LocalAws.DLQ);
        assertThat(record.at("/attributes/ApproximateReceiveCount").asText()).isEqualTo("1");
    }

    @Test
    void batchItemFailures_shouldFailTheWholeBatch_whenAnIdentifierIsEmpty() {
        // then: Lambda treats an empty or missing itemIdentifier as a failure of the whole batch
        assertThat(SqsEventSource.batchItemFailures("{\"batchItemFailures\":[{\"itemIdentifier\":\"\"}]}"
                .getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(SqsEventSource.batchItemFailures("{\"batchItemFailures\":[]}".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
        assertThat(SqsEventSource.batchItemFailures("not json".getBytes(StandardCharsets.UTF_8))).isNull();
    }
}
