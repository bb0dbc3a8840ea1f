package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.model.seal.MessageSeal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The seal travels with the message over SQS's wire protocol (ElasticMQ): the router's sends (one and batched) carry
 * the seal of the exact body the worker receives, and a message the worker moves to the DLQ keeps it.
 */
class SqsMessageSealTest {
    private static final MessageSeal SEALS = MessageSeal.of(DeploymentKey.of(DeploymentKey.generateText()));
    private static final Owner ALICE = new Owner("sha256:" + "a".repeat(64));
    private static LocalAws aws;
    private static SqsClient sqs;

    @BeforeAll
    static void startLocalAws() {
        aws = LocalAws.start();
        sqs = aws.newSqsClient();
    }

    @AfterAll
    static void stopLocalAws() {
        sqs.close();
        aws.close();
    }

    @Test
    void send_shouldSealEachMessagesExactBody_whenSentAloneOrBatched_andTheDlqCopyShouldKeepTheSeal() {
        // given
        Tier tier = TierCatalogue.bundled().defaultTier(Task.GENERATE);
        String queueUrl = aws.queueUrl(tier);
        SqsJobQueue router = new SqsJobQueue(sqs, Map.of(tier, queueUrl), 262_144, (key, json) -> {
            throw new AssertionError("no claim check expected");
        }, Optional::empty, Optional.of(SEALS));

        // when
        router.send(job(), tier);
        assertThat(router.sendAll(tier, List.of(job(), job()))).isEmpty();

        // then
        SqsTierQueue worker = new SqsTierQueue(sqs, queueUrl, Optional.of(aws.queueUrl(LocalAws.DLQ)));
        List<QueueMessage> received = new ArrayList<>();
        while (received.size() < 3) {
            List<QueueMessage> batch = worker.receive(10, Duration.ofSeconds(1));
            assertThat(batch).as("received so far: %d", received.size()).isNotEmpty();
            received.addAll(batch);
        }
        assertThat(received).allSatisfy(m -> assertThat(SEALS.verifies(m.body(), m.seal())).isTrue());
        worker.sendToDeadLetterQueue(received.get(0), "test");
        worker.delete(received);
        Message dead = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.DLQ)).waitTimeSeconds(5)
                .messageAttributeNames("All")).messages().get(0);
        assertThat(dead.messageAttributes()).extractingByKey(MessageAttributes.SEAL)
                .extracting(MessageAttributeValue::stringValue).isEqualTo(received.get(0).seal());
        sqs.deleteMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.DLQ)).receiptHandle(dead.receiptHandle()));
    }

    @Test
    void send_shouldCarryNoSeal_withoutADeploymentKey() {
        Tier tier = TierCatalogue.bundled().escalationTier();
        String queueUrl = aws.queueUrl(tier);
        new SqsJobQueue(sqs, Map.of(tier, queueUrl), 262_144, (key, json) -> { }).send(job(), tier);

        List<QueueMessage> received = new SqsTierQueue(sqs, queueUrl, Optional.empty()).receive(1,
                Duration.ofSeconds(5));

        assertThat(received).singleElement().extracting(QueueMessage::seal).isNull();
    }

    private static InferenceJob job() {
        return JobJson.read("{\"requestId\":\"" + UUID.randomUUID() + "\",\"task\":\"generate\",\"prompt\":\"Hi\"}",
                InferenceJob.class).withSubmittedAt(Instant.parse("2026-12-03T12:00:00Z")).withOwner(ALICE);
    }
}
