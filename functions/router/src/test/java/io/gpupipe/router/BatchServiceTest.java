package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.adapters.aws.SqsBatchTasks;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.batch.BatchEndpoint;
import io.gpupipe.model.batch.BatchIds;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchObject;
import io.gpupipe.model.batch.BatchPlan;
import io.gpupipe.model.batch.BatchRequest;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.batch.LineCounts;
import io.gpupipe.model.batch.RequestCounts;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** BatchService without Quarkus, over the real S3/SQS adapters and local endpoints, counting its S3 calls. */
class BatchServiceTest {
    private static final Owner OWNER = new CallerIdentity.Jwt("https://idp.example.com", "batch-service-test")
            .owner();
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final List<String> S3_CALLS = Collections.synchronizedList(new ArrayList<>());
    private static LocalAws aws;
    private static S3Client s3;
    private static S3Presigner presigner;
    private static SqsClient sqs;

    private S3BatchStore store;
    private BatchService service;

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        s3 = S3Client.builder().endpointOverride(aws.s3Endpoint()).region(Region.of(LocalAws.REGION))
                .forcePathStyle(true).credentialsProvider(LocalAws.credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                        S3_CALLS.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
                    }
                })).build();
        presigner = aws.newS3Presigner();
        sqs = aws.newSqsClient();
    }

    @AfterAll
    static void stop() {
        sqs.close();
        presigner.close();
        s3.close();
        aws.close();
    }

    @BeforeEach
    void setUp() {
        store = new S3BatchStore(s3, presigner, aws.bucket());
        service = new BatchService(store, Optional.of(new SqsBatchTasks(sqs, aws.queueUrl(LocalAws.BATCH_QUEUE))),
                CLOCK, Duration.ofHours(1), Duration.ofMinutes(15), UUID::randomUUID);
        sqs.purgeQueue(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE)));
        S3_CALLS.clear();
    }

    @Test
    void create_shouldRecordTheBatchAndHandItToTheBatchQueue_whenTheUploadExists() throws Exception {
        // given: an input file uploaded through the presigned PUT, as a client does
        UploadResponse upload = service.upload(OWNER);
        HttpResponse<String> put = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                upload.uploadUrl())).PUT(HttpRequest.BodyPublishers.ofString("{\"custom_id\":\"a\"}\n")).build(),
                HttpResponse.BodyHandlers.ofString());

        // when
        BatchOutcome outcome = service.create("{\"input_file_id\":\"" + upload.inputFileId() + "\",\"endpoint\":"
                + "\"/v1/completions\",\"completion_window\":\"24h\"}", OWNER);

        // then
        assertThat(put.statusCode()).isEqualTo(200);
        assertThat(upload.inputFileId()).startsWith(BatchLayout.INPUTS_PREFIX).endsWith(".jsonl");
        BatchObject batch = ((BatchOutcome.Found) outcome).batch();
        assertThat(batch.status()).isEqualTo("validating");
        assertThat(batch.inputFileId()).isEqualTo(upload.inputFileId());
        assertThat(batch.expiresAt()).isEqualTo(NOW.plusSeconds(86_400).getEpochSecond());
        assertThat(store.read(batch.id())).isPresent();
        assertThat(tasks()).containsExactly(BatchTask.of(BatchTask.Type.PLAN, batch.id()));
    }

    @Test
    void create_shouldRefuseAMissingUpload_andStoreNothing() {
        // when
        String never = BatchLayout.inputKey(OWNER, UUID.randomUUID());
        BatchOutcome outcome = service.create("{\"input_file_id\":\"" + never + "\",\"endpoint\":"
                + "\"/v1/completions\"}", OWNER);

        // then
        assertThat(((BatchOutcome.Rejected) outcome).errors()).extracting(FieldError::field)
                .containsExactly("input_file_id");
        assertThat(tasks()).isEmpty();
    }

    @Test
    void create_shouldTakeTheRecordBack_whenTheBatchQueueIsDown() {
        // given
        String input = upload("{}\n");
        SqsClient down = SqsClient.builder().endpointOverride(URI.create("http://127.0.0.1:1"))
                .region(Region.of(LocalAws.REGION)).credentialsProvider(LocalAws.credentials())
                .httpClient(UrlConnectionHttpClient.create()).build();
        BatchService offline = new BatchService(store, Optional.of(new SqsBatchTasks(down, "http://127.0.0.1:1/q")),
                CLOCK, Duration.ofHours(1), Duration.ofMinutes(15), UUID::randomUUID);

        // when
        BatchOutcome outcome;
        try (down) {
            outcome = offline.create("{\"input_file_id\":\"" + input + "\",\"endpoint\":\"/v1/completions\"}",
                    OWNER);
        }

        // then: no batch reads validating with nobody to plan it
        assertThat(outcome).isInstanceOf(BatchOutcome.Unavailable.class);
        assertThat(store.list(BatchLayout.BATCHES_PREFIX)).noneMatch(k -> k.endsWith("/batch.json")
                && store.read(k.split("/")[1]).map(s -> s.state().inputFileId().equals(input)).orElse(false));
    }

    @Test
    void get_shouldCountEveryLineOfAHundredChunks_withFourS3Calls() {
        // given: 100 chunks of 1,000 lines; 60 ended (counts in their keys), 40 running with progress records
        BatchState state = running(100);
        for (int chunk = 0; chunk < 100; chunk++) {
            String key = chunk < 60 ? BatchLayout.endedKey(state.id(), chunk, new LineCounts(990, 6, 0, 0, 4))
                    : BatchLayout.progressKey(state.id(), chunk, new LineCounts(500, 2, 0, 0, 0));
            store.createEmpty(key);
        }
        S3_CALLS.clear();

        // when
        BatchObject batch = ((BatchOutcome.Found) service.get(state.id(), OWNER)).batch();

        // then: record, ended listing, progress listing; never a call per chunk or per line
        assertThat(batch.requestCounts()).isEqualTo(new RequestCounts(100_000, 60 * 990 + 40 * 500,
                60 * 10 + 40 * 2));
        assertThat(batch.status()).isEqualTo("in_progress");
        assertThat(S3_CALLS).containsExactly("GetObject", "ListObjectsV2", "ListObjectsV2");
    }

    @Test
    void get_shouldShowTheFinishedBatchWithPresignedFiles_onceTheFinalRecordIsWritten() throws Exception {
        // given
        BatchState state = running(1);
        store.createEmpty(BatchLayout.endedKey(state.id(), 0, new LineCounts(999, 1, 0, 0, 0)));
        String output = BatchLayout.fileKey(state.id(), BatchLayout.File.OUTPUT);
        s3.putObject(b -> b.bucket(aws.bucket()).key(output), RequestBody.fromString("{\"id\":\"x\"}\n"));
        BatchState done = state.finished(new LineCounts(999, 1, 0, 0, 0), output, null, NOW, NOW);
        assertThat(service.get(state.id(), OWNER)).extracting(o -> ((BatchOutcome.Found) o).batch().status())
                .isEqualTo("finalizing");
        store.createFinal(done);

        // when
        BatchObject batch = ((BatchOutcome.Found) service.get(state.id(), OWNER)).batch();

        // then
        assertThat(batch.status()).isEqualTo("completed");
        assertThat(batch.requestCounts()).isEqualTo(new RequestCounts(1000, 999, 1));
        assertThat(batch.errorFileUrl()).isNull();
        HttpResponse<String> file = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                batch.outputFileUrl())).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(file.body()).isEqualTo("{\"id\":\"x\"}\n");
    }

    @Test
    void cancel_shouldMarkCancellingAndAskAgainOnRetry_andRefuseAFinishedBatch() {
        // given
        BatchState state = running(3);
        BatchState finished = running(1);
        store.update(finished.id(), s -> Optional.of(s.finished(LineCounts.ZERO, null, null, NOW, NOW)));

        // when
        BatchOutcome first = service.cancel(state.id(), OWNER);
        BatchOutcome again = service.cancel(state.id(), OWNER);
        BatchOutcome late = service.cancel(finished.id(), OWNER);

        // then
        assertThat(((BatchOutcome.Found) first).batch().status()).isEqualTo("cancelling");
        assertThat(((BatchOutcome.Found) first).batch().cancellingAt()).isEqualTo(NOW.getEpochSecond());
        assertThat(again).isInstanceOf(BatchOutcome.Found.class);
        assertThat(tasks()).containsExactly(BatchTask.of(BatchTask.Type.CANCEL, state.id()),
                BatchTask.of(BatchTask.Type.CANCEL, state.id()));
        assertThat(late).isInstanceOf(BatchOutcome.NotCancellable.class);
        assertThat(service.cancel("batch_nope", OWNER)).isInstanceOf(BatchOutcome.InvalidId.class);
        assertThat(service.cancel(BatchIds.newBatchId(UUID.randomUUID()), OWNER))
                .isInstanceOf(BatchOutcome.NotFound.class);
    }

    /** A batch already planned into {@code chunks} chunks of 1,000 lines. */
    private BatchState running(int chunks) {
        List<ChunkPlan> plan = IntStream.range(0, chunks).mapToObj(c -> new ChunkPlan(c, c * 1000 + 1, c, c + 1,
                1000, List.of())).toList();
        BatchState state = BatchState.created(BatchIds.newBatchId(UUID.randomUUID()), new BatchRequest(
                BatchLayout.inputKey(OWNER, UUID.randomUUID()), BatchEndpoint.CHAT_COMPLETIONS, "24h", null, null),
                OWNER, NOW)
                .planned(new BatchPlan(chunks * 1000, plan), NOW);
        store.create(state).orElseThrow();
        return state;
    }

    private String upload(String content) {
        String key = BatchLayout.inputKey(OWNER, UUID.randomUUID());
        s3.putObject(b -> b.bucket(aws.bucket()).key(key), RequestBody.fromString(content));
        return key;
    }

    private List<BatchTask> tasks() {
        List<BatchTask> tasks = new ArrayList<>();
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE))
                    .maxNumberOfMessages(10).waitTimeSeconds(1)).messages();
            if (batch.isEmpty()) {
                return tasks;
            }
            batch.forEach(m -> tasks.add(BatchTask.read(m.body())));
        }
    }
}
