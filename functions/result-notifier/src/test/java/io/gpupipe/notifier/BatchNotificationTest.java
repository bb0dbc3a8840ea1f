package io.gpupipe.notifier;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.InjectSnsStandIn;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localaws.standin.SnsStandInResource;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.batch.BatchEndpoint;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchPlan;
import io.gpupipe.model.batch.BatchRequest;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.batch.LineCounts;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.testsupport.CallbackReceiver;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** Batch lines' results and the batch event, through the real handler on S3Proxy, ElasticMQ and the SNS stand-in. */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = SnsStandInResource.class, initArgs = {
        @ResourceArg(name = "gpupipe.notifier.success-topic-arn", value = ResultNotifierHandlerTest.SUCCESS_TOPIC),
        @ResourceArg(name = "gpupipe.notifier.error-topic-arn", value = ResultNotifierHandlerTest.ERROR_TOPIC)})
class BatchNotificationTest {
    static CallbackReceiver receiver;

    @InjectLocalAws
    LocalAws aws;

    @InjectSnsStandIn
    SnsStandIn sns;

    @BeforeAll
    static void startReceiver() throws IOException {
        receiver = new CallbackReceiver();
    }

    @AfterAll
    static void stopReceiver() {
        receiver.close();
    }

    @BeforeEach
    void reset() {
        sns.reset();
        receiver.reset();
        try (SqsClient sqs = aws.newSqsClient()) {
            sqs.purgeQueue(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE)));
        }
    }

    @Test
    void lineResults_shouldBeRecordedWithoutJobEvents_andTheLastOfAChunkShouldHandItBack() {
        // given: a chunk of two lines whose jobs finish one after the other
        String batchId = BatchIds.newBatchId(UUID.randomUUID());
        JobResult first = result(new BatchMember(batchId, 3, 11, 2), true);
        JobResult second = result(new BatchMember(batchId, 3, 12, 2), false);

        // when
        put(JobLayout.resultKey(first.requestId()), JobJson.write(first));
        JsonNode one = invoke(s3Event(JobLayout.resultKey(first.requestId())));
        List<Message> afterOne = batchTasks();
        put(JobLayout.resultKey(second.requestId()), JobJson.write(second));
        invoke(s3Event(JobLayout.resultKey(second.requestId())));

        // then: no job event for a batch line; done records, progress, and CHUNK_ENDED once the chunk is complete
        assertThat(one.get("notified").asInt()).isEqualTo(1);
        assertThat(sns.published()).isEmpty();
        assertThat(afterOne).isEmpty();
        assertThat(batchTasks()).extracting(m -> BatchTask.read(m.body()))
                .containsExactly(BatchTask.ofChunk(BatchTask.Type.CHUNK_ENDED, batchId, 3));
        try (S3Client s3 = aws.newS3Client()) {
            assertThat(s3.listObjectsV2(b -> b.bucket(aws.bucket()).prefix(BatchLayout.donePrefix(batchId, 3)))
                    .contents()).extracting(o -> o.key()).containsExactly(BatchLayout.donePrefix(batchId, 3) + "11.s",
                            BatchLayout.donePrefix(batchId, 3) + "12.f");
            assertThat(s3.listObjectsV2(b -> b.bucket(aws.bucket()).prefix(BatchLayout.progressPrefix(batchId)))
                    .contents()).extracting(o -> o.key())
                    .containsExactly(BatchLayout.progressKey(batchId, 3, new LineCounts(1, 1, 0, 0, 0)));
        }
    }

    @Test
    void finalRecord_shouldSendOneSignedBatchEvent_evenWhenItsS3EventArrivesTwice() throws Exception {
        // given: the terminal record of a completed batch with a callback
        Owner owner = OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS);
        BatchState done = BatchState.created(BatchIds.newBatchId(UUID.randomUUID()), new BatchRequest(
                        BatchLayout.inputKey(owner, UUID.randomUUID()), BatchEndpoint.CHAT_COMPLETIONS, "24h", null,
                        receiver.url("/batches")), owner, Instant.now())
                .planned(new BatchPlan(3, List.of(new ChunkPlan(0, 1, 0, 10, 3, List.of()))), Instant.now())
                .finished(new LineCounts(2, 1, 0, 0, 0), "batches/x/output.jsonl", "batches/x/errors.jsonl",
                        Instant.now(), Instant.now());
        String key = BatchLayout.finalKey(done.id());
        put(key, JobJson.write(done));

        // when: its S3 event twice, and the callback queue delivering what each handed to it
        JsonNode report = invoke(s3Event(key));
        invoke(s3Event(key));
        JsonNode queued = ResultNotifierHandlerTest.deliverQueued(aws, done.id(), done.id());

        // then: one event on SNS and one signed callback, delivered from the callback queue
        assertThat(report.at("/items/0/callback").asText()).isEqualTo("QUEUED");
        assertThat(queued.get("items")).extracting(i -> i.get("callback").asText())
                .containsExactly("DELIVERED", "DELIVERED");
        assertThat(sns.published()).hasSize(1);
        assertThat(sns.published().get(0).topicArn()).isEqualTo(ResultNotifierHandlerTest.SUCCESS_TOPIC);
        JsonNode event = JobJson.read(sns.published().get(0).message(), JsonNode.class);
        assertThat(event.path("type").asText()).isEqualTo("batch.completed");
        assertThat(event.at("/batch/id").asText()).isEqualTo(done.id());
        assertThat(event.at("/batch/request_counts/completed").asInt()).isEqualTo(2);
        assertThat(receiver.received("/batches")).hasSize(1).allSatisfy(r -> {
            assertThat(r.verifiedBy(ResultNotifierHandlerTest.SECRET)).isTrue();
            assertThat(r.webhookId()).isEqualTo(CallbackSignature.messageId(aws.bucket(), done.id()));
        });
        assertThat(receiver.received("/batches").get(0).body()).isEqualTo(sns.published().get(0).message());
    }

    private JobResult result(BatchMember member, boolean succeeded) {
        InferenceJob job = new InferenceJob(member.requestId(), Task.GENERATE, "x", 8, 0, 1, null, null, null, null,
                86_400, Instant.now(), null, null, null, null, null, null, member);
        JobResult.Provenance run = new JobResult.Provenance(Tier.of("small"), "m", null, null, 1, 1L, 1L);
        return succeeded ? JobResult.succeeded(job, JobResult.Output.text("t", JobResult.Usage.of(1, 1), "stop"), run,
                Instant.now()) : JobResult.failed(job, JobResult.JobError.of("model_error", "x"), run, Instant.now());
    }

    private void put(String key, String json) {
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(key), RequestBody.fromString(json));
        }
    }

    private List<Message> batchTasks() {
        try (SqsClient sqs = aws.newSqsClient()) {
            return sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE)).maxNumberOfMessages(10)
                    .waitTimeSeconds(1)).messages();
        }
    }

    /** An S3 ObjectCreated event for {@code key}, as S3 sends it (the sample with another key). */
    private String s3Event(String key) {
        JsonNode event = JobJson.read(sample("s3-result-succeeded.json"), JsonNode.class);
        ((com.fasterxml.jackson.databind.node.ObjectNode) event.at("/Records/0/s3/object")).put("key", key);
        ((com.fasterxml.jackson.databind.node.ObjectNode) event.at("/Records/0/s3/bucket")).put("name", aws.bucket());
        return event.toString();
    }
}
