package io.gpupipe.deadletter;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Posts the events/ samples (and events built from real ElasticMQ DLQ messages) through the mock Lambda event
 * server to the real handler, which reads and writes S3Proxy.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class DeadLetterHandlerTest {
    static final String A = "7d8e9f0a-1b2c-4d3e-8f4a-5b6c7d8e9f0a";
    static final String B = "8e9f0a1b-2c3d-4e4f-9a5b-6c7d8e9f0a1b";
    static final Instant SUBMITTED = Instant.parse("2026-12-01T03:00:00Z");
    static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));

    @InjectLocalAws
    LocalAws aws;

    @Test
    void handle_shouldWriteFailedDeadLetteredWithAttempts_whenJobHasNoResult() {
        // given: a worker had marked the job running, then every delivery was lost
        putMarker(A, JobStatus.RUNNING, Tier.of("small"));

        // when
        JsonNode response = invoke(sealed(sample("sqs-dead-lettered-job.json")));

        // then: deleted (no batch item failure) and the client's failed result, with its callback for the notifier
        assertThat(response.get("batchItemFailures")).isEmpty();
        JobResult result = readResult(A).orElseThrow();
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.DEAD_LETTERED);
        assertThat(result.attempts()).isEqualTo(4);
        assertThat(result.tier()).isEqualTo(Tier.of("small"));
        assertThat(result.task()).isEqualTo(Task.GENERATE);
        assertThat(result.callbackUrl()).isEqualTo("https://hooks.example.com/gpupipe");
    }

    @Test
    void handle_shouldKeepTheWorkersResult_whenOneExists() {
        // given: the worker's result landed before SQS gave up on the message
        String id = UUID.randomUUID().toString();
        String workers = JobJson.write(JobResult.failed(id, Task.GENERATE, null,
                JobResult.JobError.of(ErrorCodes.MODEL_ERROR, "boom"), null, SUBMITTED));
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(id)), RequestBody.fromString(workers));
        }

        // when
        JsonNode response = invoke(event(sealed(record("m-1", "{\"requestId\":\"" + id + "\",\"prompt\":\"x\"}", 4))));

        // then: deleted, result untouched (the 412 of the create-only write)
        assertThat(response.get("batchItemFailures")).isEmpty();
        assertThat(readResult(id).orElseThrow().error().code()).isEqualTo(ErrorCodes.MODEL_ERROR);
    }

    @Test
    void handle_shouldWriteNoResult_whenJobWasCancelled() {
        // given
        String id = UUID.randomUUID().toString();
        putMarker(id, JobStatus.CANCELLED, Tier.of("large"));

        // when
        JsonNode response = invoke(event(sealed(record("m-2", "{\"requestId\":\"" + id + "\",\"prompt\":\"x\"}", 4))));

        // then
        assertThat(response.get("batchItemFailures")).isEmpty();
        assertThat(readResult(id)).isEmpty();
    }

    @Test
    void handle_shouldAnswerThePointerAndKeepUnreadableMessages_whenBatchIsMixed() {
        // when: a claim-check pointer, a job without requestId, a body that is not JSON
        JsonNode response = invoke(sealed(sample("sqs-dead-lettered-batch.json")));

        // then: the pointer's job is answered; the two unreadable messages are reported, so Lambda keeps them
        assertThat(readResult(B).orElseThrow().error().code()).isEqualTo(ErrorCodes.DEAD_LETTERED);
        assertThat(response.get("batchItemFailures").findValuesAsText("itemIdentifier")).containsExactly(
                "2d3e4f50-6172-4839-8a41-5c6d7e8f9001", "3e4f5061-7283-494a-9b52-6d7e8f900112");
    }

    @Test
    void handle_shouldNameTheBatchInTheResult_whenTheJobIsALineOfOne() {
        // given: a batch line's marker, and its message dead-lettered as a claim-check pointer (no job in it)
        BatchMember member = new BatchMember(BatchIds.newBatchId(UUID.randomUUID()), 2, 2001, 1000);
        String id = member.requestId();
        InferenceJob job = new InferenceJob(id, Task.GENERATE, "x", 1, 0, 1, null, null, null, null, 86_400,
                SUBMITTED, null, null, null, null, null, null, member);
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.markerKey(id)),
                    RequestBody.fromString(JobJson.write(JobState.queued(job, Tier.of("small"), SUBMITTED))));
        }

        // when
        invoke(event(sealed(record("m-3", "{\"requestId\":\"" + id + "\",\"payloadKey\":\""
                + JobLayout.payloadKey(id) + "\"}", 3))));

        // then: the notifier will record the line as ended, so the batch can finish
        JobResult result = readResult(id).orElseThrow();
        assertThat(result.error().code()).isEqualTo(ErrorCodes.DEAD_LETTERED);
        assertThat(result.batch()).isEqualTo(member);
    }

    @Test
    void handle_shouldAnswerJob_whenSqsRedroveItAfterMaxReceives() {
        // given: a job received maxReceiveCount times and never deleted, so ElasticMQ's redrive moves it
        String id = UUID.randomUUID().toString();
        Message dead;
        try (SqsClient sqs = aws.newSqsClient()) {
            String small = aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE);
            sqs.sendMessage(b -> b.queueUrl(small).messageBody("{\"requestId\":\"" + id + "\",\"prompt\":\"x\"}"));
            for (int i = 0; i <= aws.maxReceiveCount(); i++) {
                sqs.receiveMessage(b -> b.queueUrl(small).visibilityTimeout(0).waitTimeSeconds(1));
            }
            dead = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.DLQ)).waitTimeSeconds(5)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages().stream()
                    .filter(m -> m.body().contains(id)).findFirst().orElseThrow();
        }
        int receives = Integer.parseInt(dead.attributesAsStrings().get("ApproximateReceiveCount"));

        // when
        JsonNode response = invoke(event(record(dead.messageId(), dead.body(), receives)));

        // then: a producer's job (unsealed), answered under the id derived from the queue owner and its requestId
        assertThat(response.get("batchItemFailures")).isEmpty();
        JobResult result = readResult(JobIds.stored(Owner.QUEUE, id)).orElseThrow();
        assertThat(result.error().code()).isEqualTo(ErrorCodes.DEAD_LETTERED);
        assertThat(result.attempts()).isEqualTo(receives).isPositive();
        assertThat(result.owner()).isEqualTo(Owner.QUEUE.value());
        assertThat(readResult(id)).isEmpty();
    }

    @Test
    void handle_shouldAnswerAnUnsealedMessageInTheQueueOwnersNamespace_whateverOwnerAndIdItNames() {
        // given: a producer's message naming caller A's owner, a client id A will use and the stored id of both
        String clientId = UUID.randomUUID().toString();
        String alices = JobIds.stored(ALICE, clientId);
        String planted = "{\"requestId\":\"" + alices + "\",\"prompt\":\"x\",\"owner\":\"" + ALICE.value()
                + "\",\"clientRequestId\":\"" + clientId + "\"}";

        // when
        invoke(event(record("m-4", planted, 4)));

        // then: no result of A's; the producer's own under the queue owner's id
        assertThat(readResult(alices)).isEmpty();
        assertThat(readResult(JobIds.stored(Owner.QUEUE, alices)).orElseThrow().owner())
                .isEqualTo(Owner.QUEUE.value());
    }

    @Test
    void handle_shouldWriteNoResult_whenTheIdIsHeldByAnotherRequest() {
        // given: a producer's job under way, and a dead-lettered message of the same requestId with another prompt
        String id = UUID.randomUUID().toString();
        String stored = JobIds.stored(Owner.QUEUE, id);
        InferenceJob first = JobJson.read("{\"requestId\":\"" + stored + "\",\"task\":\"generate\","
                + "\"prompt\":\"first\",\"owner\":\"queue\",\"clientRequestId\":\"" + id + "\"}", InferenceJob.class);
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.markerKey(stored)),
                    RequestBody.fromString(JobJson.write(JobState.queued(first, Tier.of("small"), SUBMITTED))));
        }

        // when
        JsonNode response = invoke(event(record("m-5", "{\"requestId\":\"" + id + "\",\"prompt\":\"second\"}",
                4)));

        // then: deleted, and the first job's result is still its own to write
        assertThat(response.get("batchItemFailures")).isEmpty();
        assertThat(readResult(stored)).isEmpty();
    }

    private void putMarker(String id, JobStatus status, Tier tier) {
        JobState marker = new JobState(id, status, tier, Task.GENERATE, SUBMITTED, SUBMITTED, null, null);
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.markerKey(id)),
                    RequestBody.fromString(JobJson.write(marker)));
        }
    }

    private Optional<JobResult> readResult(String id) {
        try (S3Client s3 = aws.newS3Client()) {
            return Optional.of(JobJson.read(s3.getObjectAsBytes(b -> b.bucket(aws.bucket())
                    .key(JobLayout.resultKey(id))).asUtf8String(), JobResult.class));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    private static ObjectNode record(String messageId, String body, int receiveCount) {
        ObjectNode record = JobJson.mapper().createObjectNode().put("messageId", messageId)
                .put("receiptHandle", "rh-" + messageId).put("body", body).put("eventSource", "aws:sqs")
                .put("eventSourceARN", "arn:aws:sqs:us-east-1:000000000000:gpupipe-dlq").put("awsRegion", "us-east-1");
        record.set("attributes", JobJson.mapper().valueToTree(Map.of("ApproximateReceiveCount",
                Integer.toString(receiveCount))));
        record.putObject("messageAttributes");
        return record;
    }

    /** {@code record} as the router's message: sealed with the deployment key (the worker keeps the seal). */
    private ObjectNode sealed(ObjectNode record) {
        ObjectNode seal = ((ObjectNode) record.get("messageAttributes")).putObject(MessageAttributes.SEAL);
        seal.put("stringValue", aws.messageSeal().seal(record.get("body").asText())).put("dataType", "String");
        return record;
    }

    /** Every record of the sample {@code event} sealed as the router's message. */
    private String sealed(String event) {
        JsonNode tree = JobJson.read(event, JsonNode.class);
        tree.get("Records").forEach(r -> {
            if (!r.has("messageAttributes") || r.get("messageAttributes").isNull()) {
                ((ObjectNode) r).putObject("messageAttributes");
            }
            sealed((ObjectNode) r);
        });
        return tree.toString();
    }

    private static String event(ObjectNode... records) {
        ObjectNode event = JobJson.mapper().createObjectNode();
        ArrayNode array = event.putArray("Records");
        List.of(records).forEach(array::add);
        return event.toString();
    }
}
