package io.gpupipe.localstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.job.MessageAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The console's DLQ redrive on ElasticMQ 1.7.1: SQS's own message move task, with the destination named. */
class RedriveTest {
    private LocalAws aws;
    private SqsClient sqs;

    @BeforeEach
    void start() {
        aws = LocalAws.start();
        sqs = aws.newSqsClient();
    }

    @AfterEach
    void stop() {
        sqs.close();
        aws.close();
    }

    @Test
    void start_shouldMoveEveryDlqMessageToTheNamedQueue_withItsAttributes() throws Exception {
        // given two messages a worker dead-lettered, as it does: the raw body, its reason and origin
        String dlq = aws.queueUrl(LocalAws.DLQ);
        String destination = aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE);
        for (String body : List.of("poison one", "poison two")) {
            sqs.sendMessage(b -> b.queueUrl(dlq).messageBody(body).messageAttributes(Map.of(
                    MessageAttributes.ERROR_REASON, text("invalid_request: body not JSON"),
                    MessageAttributes.ORIGINAL_QUEUE, text(LocalAws.DEFAULT_TEXT_QUEUE))));
        }
        Redrive redrive = new Redrive(sqs, arn(dlq));
        // when
        String handle = redrive.start(arn(destination));
        // then both arrive on the destination, reasons kept, and the DLQ is empty
        assertThat(handle).isNotBlank();
        List<Message> moved = receiveAll(destination, 2, Duration.ofSeconds(20));
        assertThat(moved).extracting(Message::body).containsExactlyInAnyOrder("poison one", "poison two");
        assertThat(moved).allSatisfy(m -> assertThat(m.messageAttributes().get(MessageAttributes.ERROR_REASON)
                .stringValue()).isEqualTo("invalid_request: body not JSON"));
        assertThat(sqs.getQueueAttributes(b -> b.queueUrl(dlq).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("0");
        // and SQS lists the task
        List<Redrive.MoveTask> tasks = redrive.tasks();
        assertThat(tasks).isNotEmpty();
        assertThat(tasks.get(0).destinationArn()).isEqualTo(arn(destination));
    }

    private List<Message> receiveAll(String queue, int count, Duration limit) {
        List<Message> received = new ArrayList<>();
        long deadline = System.nanoTime() + limit.toNanos();
        while (received.size() < count && System.nanoTime() < deadline) {
            received.addAll(sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(1)
                    .messageAttributeNames("All")).messages());
        }
        return received;
    }

    private String arn(String url) {
        return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
    }

    private static MessageAttributeValue text(String value) {
        return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
    }
}
