package io.gpupipe.batch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.adapters.aws.SqsBatchTasks;
import io.gpupipe.jobs.LineLedger;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.batch.BatchEndpoint;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchOutputs;
import io.gpupipe.model.batch.BatchRequest;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchStatus;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.LineError;
import io.gpupipe.model.batch.LineOutcome;
import io.gpupipe.model.batch.RequestCounts;
import io.gpupipe.model.embedding.EmbeddingResponse;
import io.gpupipe.model.embedding.EncodingFormat;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.testsupport.LambdaInvocations;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The batch function through the mock Lambda event server, on ElasticMQ and S3Proxy: each test pumps the batch
 * queue into the handler as Lambda's event source would, and plays the worker (results) and the notifier (the line
 * ledger) itself. Chunks of 4 lines (test profile), so the OpenAI example file is 3 chunks.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class BatchHandlerTest {
    private static final Owner ANONYMOUS_OWNER = OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS);
    /** shared-model's OpenAI example file (see its README): 3 valid chat lines, 6 invalid ones, a blank one. */
    static final Path OPENAI_EXAMPLE = Path.of("..", "..", "shared-model", "src", "test", "resources", "batches",
            "openai-example.jsonl");
    private static final Instant CREATED = Instant.parse("2026-12-01T10:00:00Z");

    @InjectLocalAws
    LocalAws aws;

    private S3Client s3;
    private SqsClient sqs;
    private S3BatchStore store;
    private LineLedger ledger;

    @BeforeEach
    void setUp() {
        s3 = aws.newS3Client();
        sqs = aws.newSqsClient();
        store = new S3BatchStore(s3, aws.newS3Presigner(), aws.bucket());
        ledger = new LineLedger(store, new SqsBatchTasks(sqs, aws.queueUrl(LocalAws.BATCH_QUEUE)));
        for (String queue : List.of(LocalAws.BATCH_QUEUE, LocalAws.DEFAULT_TEXT_QUEUE, LocalAws.ESCALATION_QUEUE)) {
            sqs.purgeQueue(b -> b.queueUrl(aws.queueUrl(queue)));
        }
    }

    @AfterEach
    void tearDown() {
        sqs.close();
        s3.close();
    }

    @Test
    void batch_shouldEndCompletedWithOpenAiOutputAndErrorFiles_whenEveryJobOfTheExampleFileSucceeds()
            throws IOException {
        // given: the OpenAI example file, planned and submitted
        BatchState batch = create(Files.readString(OPENAI_EXAMPLE), BatchEndpoint.CHAT_COMPLETIONS);
        send(BatchTask.of(BatchTask.Type.PLAN, batch.id()));
        pump();
        List<InferenceJob> jobs = drainJobs(LocalAws.DEFAULT_TEXT_QUEUE);
        assertThat(jobs).extracting(j -> j.batch().line()).containsExactlyInAnyOrder(1, 2, 3);
        assertThat(store.read(batch.id()).orElseThrow().state().status()).isEqualTo(BatchStatus.IN_PROGRESS);

        // when: a worker answers each job, and the notifier records each result
        for (InferenceJob job : jobs) {
            JobResult result = JobResult.succeeded(job, JobResult.Output.text("Hello! How can I help?",
                    JobResult.Usage.of(20, 7), "stop"), new JobResult.Provenance(Tier.of("small"), "stories260K",
                    null, null, 1, 10L, 30L), Instant.now());
            putResult(result);
            ledger.record(job.batch(), LineOutcome.SUCCEEDED);
        }
        pump();

        // then: completed, every line in exactly one file, in OpenAI's format
        BatchState done = store.read(batch.id()).orElseThrow().state();
        assertThat(done.status()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(done.counts()).isEqualTo(new RequestCounts(9, 3, 6));
        assertThat(store.readFinal(batch.id())).contains(done);
        List<JsonNode> output = lines(done.outputFileId());
        List<JsonNode> errors = lines(done.errorFileId());
        assertThat(output).extracting(l -> l.path("custom_id").asText())
                .containsExactly("request-1", "request-2", "request-3");
        assertThat(output.get(0).at("/response/status_code").asInt()).isEqualTo(200);
        assertThat(output.get(0).at("/response/body/choices/0/message/content").asText())
                .isEqualTo("Hello! How can I help?");
        assertThat(output.get(0).get("error").isNull()).isTrue();
        assertThat(errors).extracting(l -> l.path("custom_id").asText(null))
                .containsExactly("request-5", "bad-role", "request-1", "wrong-url", null, null);
        assertThat(errors.get(0).at("/response/body/error/param").asText()).isEqualTo("max_tokens");
        assertThat(errors.get(2).at("/error/code").asText()).isEqualTo(LineError.DUPLICATE_CUSTOM_ID);
        assertThat(errors.get(4).at("/error/code").asText()).isEqualTo(LineError.INVALID_JSON);
    }

    @Test
    void batch_shouldWriteTheWholeEmbeddingResponse_whenTheWorkerKeptALinesVectorsInTheirOwnObject()
            throws IOException {
        // given: two embedding lines, planned and submitted
        String file = embeddingLine("large", "[\"a\",\"b\"]") + embeddingLine("small", "\"c\"");
        BatchState batch = create(file, BatchEndpoint.EMBEDDINGS);
        send(BatchTask.of(BatchTask.Type.PLAN, batch.id()));
        pump();
        List<InferenceJob> jobs = drainJobs(aws.tiers().get(Tier.of("embed")).queue());
        assertThat(jobs).hasSize(2);
        InferenceJob large = jobs.stream().filter(j -> j.batch().line() == 1).findFirst().orElseThrow();
        InferenceJob small = jobs.stream().filter(j -> j.batch().line() == 2).findFirst().orElseThrow();

        // when: the worker wrote line 1's vectors to their own object (as it does above the inline limit) and line
        // 2's inline, and the notifier recorded both
        EmbeddingResponse largeVectors = EmbeddingResponse.of(List.of(new float[] {0.6f, 0.8f},
                new float[] {1f, 0f}), EncodingFormat.FLOAT, "embedder", 2);
        EmbeddingResponse smallVectors = EmbeddingResponse.of(List.of(new float[] {0f, 1f}), EncodingFormat.FLOAT,
                "embedder", 1);
        s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.embeddingsKey(large.requestId())),
                RequestBody.fromString(JobJson.write(largeVectors)));
        JobResult.Provenance run = new JobResult.Provenance(Tier.of("embed"), "embedder", null, null, 1, 5L, 9L);
        putResult(JobResult.succeeded(large, JobResult.Output.embeddings(largeVectors)
                .withEmbeddingsAt(JobLayout.embeddingsKey(large.requestId())), run, Instant.now()));
        putResult(JobResult.succeeded(small, JobResult.Output.embeddings(smallVectors), run, Instant.now()));
        ledger.record(large.batch(), LineOutcome.SUCCEEDED);
        ledger.record(small.batch(), LineOutcome.SUCCEEDED);
        pump();

        // then: both output lines carry OpenAI's whole embedding response, vectors included
        BatchState done = store.read(batch.id()).orElseThrow().state();
        assertThat(done.status()).isEqualTo(BatchStatus.COMPLETED);
        List<JsonNode> output = lines(done.outputFileId());
        assertThat(output).extracting(l -> l.path("custom_id").asText()).containsExactly("large", "small");
        assertThat(output.get(0).at("/response/body").toString()).isEqualTo(JobJson.write(largeVectors));
        assertThat(output.get(1).at("/response/body").toString()).isEqualTo(JobJson.write(smallVectors));
    }

    @Test
    void submitChunk_shouldCreateNoSecondJob_whenItsMessageIsDeliveredAgain() throws IOException {
        // given
        BatchState batch = create(Files.readString(OPENAI_EXAMPLE), BatchEndpoint.CHAT_COMPLETIONS);
        send(BatchTask.of(BatchTask.Type.PLAN, batch.id()));
        pump();
        List<InferenceJob> first = drainJobs(LocalAws.DEFAULT_TEXT_QUEUE);

        // when: chunk 0 (lines 1-4) is delivered again
        invoke(List.of(BatchTask.ofChunk(BatchTask.Type.SUBMIT_CHUNK, batch.id(), 0)));

        // then: the same jobs (ids derived from batch and line), one marker each
        List<InferenceJob> again = drainJobs(LocalAws.DEFAULT_TEXT_QUEUE);
        assertThat(again).extracting(InferenceJob::requestId).isSubsetOf(first.stream().map(InferenceJob::requestId)
                .toList());
        assertThat(first).allSatisfy(j -> assertThat(marker(j.requestId()).batch()).isEqualTo(j.batch()));
        assertThat(first).extracting(InferenceJob::requestId).containsExactlyInAnyOrder(BatchIds.jobId(batch.id(), 1),
                BatchIds.jobId(batch.id(), 2), BatchIds.jobId(batch.id(), 3));
    }

    @Test
    void cancel_shouldCancelTheQueuedJobs_andEndCancelledWithWhatFinished() throws IOException {
        // given: a batch of speech lines whose first line's job has already finished
        String file = speechLine("one") + speechLine("two") + speechLine("three") + speechLine("four")
                + speechLine("five");
        BatchState batch = create(file, BatchEndpoint.SPEECH);
        send(BatchTask.of(BatchTask.Type.PLAN, batch.id()));
        pump();
        List<InferenceJob> jobs = drainJobs(aws.tiers().get(Tier.of("speech")).queue());
        InferenceJob finished = jobs.stream().filter(j -> j.batch().line() == 1).findFirst().orElseThrow();
        putResult(JobResult.succeeded(finished, JobResult.Output.audio(JobLayout.audioKey(finished.requestId()),
                "wav", 16_000, 800L), new JobResult.Provenance(Tier.of("speech"), "freetts", null, null, 1, 5L, 9L),
                Instant.now()));
        ledger.record(finished.batch(), LineOutcome.SUCCEEDED);

        // when: the client cancels (what the router does), and the batch function fans the cancel out
        store.update(batch.id(), s -> Optional.of(s.cancelling(Instant.now())));
        send(BatchTask.of(BatchTask.Type.CANCEL, batch.id()));
        pump();

        // then
        BatchState done = store.read(batch.id()).orElseThrow().state();
        assertThat(done.status()).isEqualTo(BatchStatus.CANCELLED);
        assertThat(done.counts()).isEqualTo(new RequestCounts(5, 1, 0));
        assertThat(jobs).filteredOn(j -> j.batch().line() > 1)
                .allSatisfy(j -> assertThat(marker(j.requestId()).status()).isEqualTo(JobStatus.CANCELLED));
        assertThat(lines(done.outputFileId())).extracting(l -> l.at("/response/body/audio_file_id").asText())
                .containsExactly(JobLayout.audioKey(finished.requestId()));
        assertThat(lines(done.errorFileId())).extracting(l -> l.at("/error/code").asText())
                .containsOnly(BatchOutputs.BATCH_CANCELLED).hasSize(4);
    }

    @Test
    void retry_shouldRunOnlyTheFailedAndCancelledLines_withTheirCustomIds_whenABatchWasCancelledHalfway()
            throws IOException {
        // given: 6 lines in 2 chunks; line 1 succeeded, line 2 failed, line 3 was no request, the rest cancelled
        String file = speechLine("one") + speechLine("two") + "{\"custom_id\":\"three\",\"method\":\"POST\","
                + "\"url\":\"/v1/embeddings\",\"body\":{}}\n" + speechLine("four") + speechLine("five")
                + speechLine("six");
        BatchState batch = create(file, BatchEndpoint.SPEECH);
        send(BatchTask.of(BatchTask.Type.PLAN, batch.id()));
        pump();
        List<InferenceJob> jobs = drainJobs(aws.tiers().get(Tier.of("speech")).queue());
        InferenceJob first = jobs.stream().filter(j -> j.batch().line() == 1).findFirst().orElseThrow();
        InferenceJob second = jobs.stream().filter(j -> j.batch().line() == 2).findFirst().orElseThrow();
        putResult(JobResult.succeeded(first, JobResult.Output.audio(JobLayout.audioKey(first.requestId()), "wav",
                16_000, 800L), new JobResult.Provenance(Tier.of("speech"), "freetts", null, null, 1, 5L, 9L),
                Instant.now()));
        ledger.record(first.batch(), LineOutcome.SUCCEEDED);
        putResult(JobResult.failed(second, JobResult.JobError.of(ErrorCodes.MODEL_TIMEOUT, "too slow"), null,
                Instant.now()));
        ledger.record(second.batch(), LineOutcome.FAILED);
        store.update(batch.id(), s -> Optional.of(s.cancelling(Instant.now())));
        send(BatchTask.of(BatchTask.Type.CANCEL, batch.id()));
        pump();
        BatchState cancelled = store.read(batch.id()).orElseThrow().state();

        // when: the router's retry (the old batch names the new one; the new one is planned)
        String retryId = BatchIds.newBatchId(UUID.randomUUID());
        BatchState retry = BatchState.retryOf(cancelled, retryId, BatchLayout.retryInputKey(retryId), CREATED);
        store.update(batch.id(), s -> Optional.of(s.withRetriedBy(retry.id())));
        store.create(retry).orElseThrow();
        send(BatchTask.of(BatchTask.Type.PLAN, retry.id()));
        pump();

        // then: the old batch kept its finished line; the new input holds the other job lines as they were
        assertThat(cancelled.status()).isEqualTo(BatchStatus.CANCELLED);
        assertThat(lines(cancelled.outputFileId())).extracting(l -> l.path("custom_id").asText())
                .containsExactly("one");
        assertThat(lines(retry.inputFileId())).extracting(l -> l.path("custom_id").asText())
                .containsExactly("two", "four", "five", "six");
        assertThat(s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(retry.inputFileId())).asUtf8String())
                .isEqualTo(speechLine("two") + speechLine("four") + speechLine("five") + speechLine("six"));
        BatchState running = store.read(retry.id()).orElseThrow().state();
        assertThat(running.status()).isEqualTo(BatchStatus.IN_PROGRESS);
        assertThat(running.plan().lines()).isEqualTo(4);
        assertThat(drainJobs(aws.tiers().get(Tier.of("speech")).queue())).extracting(j -> j.batch().batchId())
                .containsOnly(retry.id()).hasSize(4);
        assertThat(store.read(batch.id()).orElseThrow().state().retriedBy()).isEqualTo(retry.id());
    }

    @Test
    void plan_shouldFailTheBatchWithWhy_whenTheInputHoldsNoLine() {
        // given
        BatchState batch = create("\n\n", BatchEndpoint.COMPLETIONS);

        // when
        send(BatchTask.of(BatchTask.Type.PLAN, batch.id()));
        pump();

        // then
        BatchState done = store.read(batch.id()).orElseThrow().state();
        assertThat(done.status()).isEqualTo(BatchStatus.FAILED);
        assertThat(done.errors()).extracting(e -> e.code()).containsExactly("empty_file");
        assertThat(store.readFinal(batch.id())).contains(done);
    }

    @Test
    void handle_shouldKeepOnlyTheUnreadableMessage_forTheDlq() throws IOException {
        // when: the events/ sample: a plan of an unknown batch (nothing to do) and a message that is no batch task
        JsonNode response = LambdaInvocations.invoke(
                LambdaInvocations.sample("never-delivered/sqs-batch-tasks.json"));

        // then
        assertThat(response.get("batchItemFailures").findValuesAsText("itemIdentifier"))
                .containsExactly("5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d");
    }

    @Test
    void result_shouldBeAnHttpErrorLine_whenTheJobFailed() throws IOException {
        // given: one completions line whose job fails at the model server
        BatchState batch = create("{\"custom_id\":\"c1\",\"method\":\"POST\",\"url\":\"/v1/completions\","
                + "\"body\":{\"prompt\":\"Once upon a time\",\"max_tokens\":8}}\n", BatchEndpoint.COMPLETIONS);
        send(BatchTask.of(BatchTask.Type.PLAN, batch.id()));
        pump();
        InferenceJob job = drainJobs(LocalAws.DEFAULT_TEXT_QUEUE).get(0);

        // when
        putResult(JobResult.failed(job, JobResult.JobError.of(ErrorCodes.MODEL_UNAVAILABLE, "no text model"), null,
                Instant.now()));
        ledger.record(job.batch(), LineOutcome.FAILED);
        pump();

        // then
        BatchState done = store.read(batch.id()).orElseThrow().state();
        assertThat(done.outputFileId()).isNull();
        assertThat(done.counts()).isEqualTo(new RequestCounts(1, 0, 1));
        assertThat(lines(done.errorFileId()).get(0).at("/response/status_code").asInt()).isEqualTo(503);
    }

    private BatchState create(String input, BatchEndpoint endpoint) {
        String key = BatchLayout.inputKey(ANONYMOUS_OWNER, UUID.randomUUID());
        s3.putObject(b -> b.bucket(aws.bucket()).key(key), RequestBody.fromString(input));
        BatchState state = BatchState.created(BatchIds.newBatchId(UUID.randomUUID()), new BatchRequest(key, endpoint,
                "24h", null, null), ANONYMOUS_OWNER, CREATED);
        store.create(state).orElseThrow();
        return state;
    }

    private static String embeddingLine(String id, String input) {
        return "{\"custom_id\":\"" + id + "\",\"method\":\"POST\",\"url\":\"/v1/embeddings\",\"body\":"
                + "{\"input\":" + input + "}}\n";
    }

    private static String speechLine(String id) {
        return "{\"custom_id\":\"" + id + "\",\"method\":\"POST\",\"url\":\"/v1/audio/speech\",\"body\":"
                + "{\"input\":\"Line " + id + ".\",\"voice\":\"kevin16\"}}\n";
    }

    private void send(BatchTask task) {
        sqs.sendMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE)).messageBody(task.toJson()));
    }

    /** Delivers the batch queue to the handler, one message per invocation, until it is empty. */
    private void pump() {
        for (int round = 0; round < 200; round++) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE))
                    .maxNumberOfMessages(1).waitTimeSeconds(1)).messages();
            if (batch.isEmpty()) {
                return;
            }
            JsonNode response = LambdaInvocations.invoke(event(batch));
            assertThat(response.get("batchItemFailures")).as(batch.get(0).body()).isEmpty();
            sqs.deleteMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE))
                    .receiptHandle(batch.get(0).receiptHandle()));
        }
        throw new AssertionError("the batch queue did not empty");
    }

    private void invoke(List<BatchTask> tasks) {
        List<Message> messages = tasks.stream().map(t -> Message.builder().messageId(UUID.randomUUID().toString())
                .receiptHandle("rh").body(t.toJson()).build()).toList();
        assertThat(LambdaInvocations.invoke(event(messages)).get("batchItemFailures")).isEmpty();
    }

    /** An SQS event of the batch queue carrying {@code messages}, as Lambda's event source delivers it. */
    static String event(List<Message> messages) {
        ObjectNode event = JobJson.mapper().createObjectNode();
        ArrayNode records = event.putArray("Records");
        for (Message m : messages) {
            records.addObject().put("messageId", m.messageId()).put("receiptHandle", m.receiptHandle())
                    .put("body", m.body()).put("eventSource", "aws:sqs").put("awsRegion", "us-east-1")
                    .put("eventSourceARN", "arn:aws:sqs:us-east-1:000000000000:gpupipe-batch");
        }
        return event.toString();
    }

    private List<InferenceJob> drainJobs(String queue) {
        List<InferenceJob> jobs = new ArrayList<>();
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(queue)).maxNumberOfMessages(10)
                    .waitTimeSeconds(1)).messages();
            if (batch.isEmpty()) {
                return jobs;
            }
            for (Message m : batch) {
                jobs.add(((JobRequestParser.Outcome.Valid) new JobRequestParser().parse(m.body(),
                        JobRequestParser.Source.QUEUE)).job());
                sqs.deleteMessage(b -> b.queueUrl(aws.queueUrl(queue)).receiptHandle(m.receiptHandle()));
            }
        }
    }

    private void putResult(JobResult result) {
        s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(result.requestId())),
                RequestBody.fromString(JobJson.write(result)));
    }

    private JobState marker(String id) {
        return JobJson.read(s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(JobLayout.markerKey(id)))
                .asUtf8String(), JobState.class);
    }

    private List<JsonNode> lines(String key) {
        try {
            return s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(key)).asUtf8String().lines()
                    .map(l -> JobJson.read(l, JsonNode.class)).toList();
        } catch (NoSuchKeyException e) {
            throw new AssertionError("no " + key, e);
        }
    }
}
