package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.owner.Owner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Fair queues: every job message carries its owner as {@code MessageGroupId}, the tenant SQS fair queues balance by
 * (SQS developer guide, "How Amazon SQS fair queues work"), on a standard queue. Checked against ElasticMQ, which
 * accepts the field on a standard queue and still hands out every message.
 */
class SqsJobQueueGroupTest {
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    private static final Owner ALICE = new Owner("sha256:" + "a".repeat(64));
    private static final Owner BOB = new Owner("sha256:" + "b".repeat(64));
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
    void send_shouldGroupTheMessageByItsOwner_whenAJobIsSentAlone() {
        // given
        Tier tier = TierCatalogue.bundled().defaultTier(Task.GENERATE);
        String queueUrl = aws.queueUrl(tier);
        InferenceJob job = job().withOwner(ALICE);

        // when
        queue(tier, queueUrl).send(job, tier);

        // then
        Message received = sqs.receiveMessage(b -> b.queueUrl(queueUrl).waitTimeSeconds(5)
                .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID)).messages().get(0);
        assertThat(received.attributes()).containsEntry(MessageSystemAttributeName.MESSAGE_GROUP_ID, ALICE.value());
        sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(received.receiptHandle()));
    }

    @Test
    void workerReceive_shouldReadEveryMessageWithItsOwnersGroup_whenOwnersAreMixedInOneBatchedSend() {
        // given: 25 jobs of two callers and one sent straight to the queue without an owner
        Tier tier = TierCatalogue.bundled().escalationTier();
        String queueUrl = aws.queueUrl(tier);
        List<InferenceJob> jobs = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            jobs.add(job().withOwner(i % 3 == 0 ? BOB : ALICE));
        }
        jobs.add(job());
        Map<String, String> expectedGroups = new HashMap<>();
        jobs.forEach(j -> expectedGroups.put(j.requestId(), j.owner() == null ? Owner.QUEUE.value() : j.owner()));

        // when
        assertThat(queue(tier, queueUrl).sendAll(tier, jobs)).isEmpty();

        // then: the worker's receive reads all 25, each with its owner's group
        SqsTierQueue worker = new SqsTierQueue(sqs, queueUrl, Optional.empty());
        Map<String, String> receivedGroups = new HashMap<>();
        while (receivedGroups.size() < jobs.size()) {
            List<QueueMessage> batch = worker.receive(10, Duration.ofSeconds(1));
            assertThat(batch).as("received so far: %d", receivedGroups.size()).isNotEmpty();
            for (QueueMessage message : batch) {
                receivedGroups.put(JobJson.read(message.body(), JsonNode.class).path("requestId").asText(),
                        message.messageGroupId());
            }
            worker.delete(batch);
        }
        assertThat(receivedGroups).isEqualTo(expectedGroups);
    }

    private static SqsJobQueue queue(Tier tier, String queueUrl) {
        return new SqsJobQueue(sqs, Map.of(tier, queueUrl), 262_144, (key, json) -> {
            throw new AssertionError("no claim check expected");
        });
    }

    private static InferenceJob job() {
        return JobJson.read("{\"requestId\":\"" + UUID.randomUUID() + "\",\"task\":\"generate\",\"prompt\":\"Hi\"}",
                InferenceJob.class).withSubmittedAt(NOW);
    }
}
