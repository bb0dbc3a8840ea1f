package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.aws.S3BatchFiles;
import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.adapters.aws.S3QuotaLedgers;
import io.gpupipe.adapters.aws.SqsBatchTasks;
import io.gpupipe.jobs.quota.BatchLinesQuota;
import io.gpupipe.jobs.quota.BatchQuota;
import io.gpupipe.jobs.quota.OwnerBatchQuota;
import io.gpupipe.jobs.quota.OwnerQuotas;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.batch.BatchEndpoint;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchObject;
import io.gpupipe.model.batch.BatchPlan;
import io.gpupipe.model.batch.BatchRequest;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.batch.LineCounts;
import io.gpupipe.model.batch.LineError;
import io.gpupipe.model.batch.LineOutcome;
import io.gpupipe.model.batch.RequestCounts;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.CallerOwners;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.router.internal.UploadGrants;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
    private static final Owner OWNER = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com",
            "batch-service-test"));
    private static final CallerOwners CALLER = CallerOwners.only(OWNER);
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final List<String> S3_CALLS = Collections.synchronizedList(new ArrayList<>());
    private static LocalAws aws;
    private static S3Client s3;
    private static S3Presigner presigner;
    private static SqsClient sqs;

    private S3BatchStore store;
    private BatchService service;
    private BatchRetries retries;
    private BatchFilePages pages;
    private S3BatchFiles files;

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
        retries = new BatchRetries(service, store, CLOCK, UUID::randomUUID);
        files = new S3BatchFiles(s3, aws.bucket());
        pages = new BatchFilePages(store, files);
        sqs.purgeQueue(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE)));
        S3_CALLS.clear();
    }

    @Test
    void create_shouldRecordTheBatchAndHandItToTheBatchQueue_whenTheUploadExists() throws Exception {
        // given: an input file uploaded through the presigned PUT, as a client does
        String input = "{\"custom_id\":\"a\"}\n";
        UploadResponse upload = granted(service.upload(OWNER, "{\"bytes\":" + input.length() + "}"));
        HttpResponse<String> put = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                upload.uploadUrl())).PUT(HttpRequest.BodyPublishers.ofString(input)).build(),
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
        BatchObject batch = ((BatchOutcome.Found) service.get(state.id(), CALLER)).batch();

        // then: record, ended listing, progress listing; never a call per chunk or per line
        assertThat(batch.requestCounts()).isEqualTo(new RequestCounts(100_000, 60 * 990 + 40 * 500,
                60 * 10 + 40 * 2));
        assertThat(batch.status()).isEqualTo("in_progress");
        assertThat(S3_CALLS).containsExactly("GetObject", "ListObjectsV2", "ListObjectsV2");
    }

    @Test
    void get_shouldFindABatchOfTheCallersEarlierOwnerId_onlyWhileTheDeploymentHonoursIt() {
        // given: a batch the caller created under its unkeyed owner id (OWNER), before the upgrade to keyed ids
        BatchState state = running(1);
        Owner keyed = DeploymentKey.of(DeploymentKey.generateText()).ownerIds().of(new CallerIdentity.Jwt(
                "https://idp.example.com", "batch-service-test"));

        // when, then: found with the earlier id honoured; unknown without it
        assertThat(service.get(state.id(), new CallerOwners(keyed, List.of(OWNER))))
                .isInstanceOf(BatchOutcome.Found.class);
        assertThat(service.get(state.id(), CallerOwners.only(keyed))).isEqualTo(new BatchOutcome.NotFound(state.id()));
    }

    @Test
    void get_shouldShowTheFinishedBatchWithPresignedFiles_onceTheFinalRecordIsWritten() throws Exception {
        // given
        BatchState state = running(1);
        store.createEmpty(BatchLayout.endedKey(state.id(), 0, new LineCounts(999, 1, 0, 0, 0)));
        String output = BatchLayout.fileKey(state.id(), BatchLayout.File.OUTPUT);
        s3.putObject(b -> b.bucket(aws.bucket()).key(output), RequestBody.fromString("{\"id\":\"x\"}\n"));
        BatchState done = state.finished(new LineCounts(999, 1, 0, 0, 0), output, null, NOW, NOW);
        assertThat(service.get(state.id(), CALLER)).extracting(o -> ((BatchOutcome.Found) o).batch().status())
                .isEqualTo("finalizing");
        store.createFinal(done);

        // when
        BatchObject batch = ((BatchOutcome.Found) service.get(state.id(), CALLER)).batch();

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
        BatchOutcome first = service.cancel(state.id(), CALLER);
        BatchOutcome again = service.cancel(state.id(), CALLER);
        BatchOutcome late = service.cancel(finished.id(), CALLER);

        // then
        assertThat(((BatchOutcome.Found) first).batch().status()).isEqualTo("cancelling");
        assertThat(((BatchOutcome.Found) first).batch().cancellingAt()).isEqualTo(NOW.getEpochSecond());
        assertThat(again).isInstanceOf(BatchOutcome.Found.class);
        assertThat(tasks()).containsExactly(BatchTask.of(BatchTask.Type.CANCEL, state.id()),
                BatchTask.of(BatchTask.Type.CANCEL, state.id()));
        assertThat(late).isInstanceOf(BatchOutcome.NotCancellable.class);
        assertThat(service.cancel("batch_nope", CALLER)).isInstanceOf(BatchOutcome.InvalidId.class);
        assertThat(service.cancel(BatchIds.newBatchId(UUID.randomUUID()), CALLER))
                .isInstanceOf(BatchOutcome.NotFound.class);
    }

    @Test
    void retry_shouldCreateABatchOfTheRemainingLines_linkedBothWays_andHandItToTheBatchFunction() {
        // given: a batch cancelled halfway: 2 succeeded, 1 failed, 3 cancelled, 1 invalid
        BatchState old = ended(new LineCounts(2, 1, 0, 3, 1), true);

        // when
        BatchOutcome outcome = retries.retry(old.id(), CALLER);

        // then: a new validating batch over a new input of the caller's, planned by the batch function
        BatchObject retry = ((BatchOutcome.Found) outcome).batch();
        assertThat(retry.status()).isEqualTo("validating");
        assertThat(retry.endpoint()).isEqualTo("/v1/chat/completions");
        assertThat(retry.metadata()).containsEntry(BatchState.RETRY_OF_KEY, old.id())
                .containsEntry("description", "nightly eval");
        assertThat(retry.inputFileId()).isEqualTo(BatchLayout.retryInputKey(retry.id()));
        assertThat(store.read(retry.id()).orElseThrow().state().retryOf()).isEqualTo(old.id());
        assertThat(tasks()).containsExactly(BatchTask.of(BatchTask.Type.PLAN, retry.id()));
        BatchObject shownOld = ((BatchOutcome.Found) service.get(old.id(), CALLER)).batch();
        assertThat(shownOld.metadata()).containsEntry(BatchState.RETRIED_BY_KEY, retry.id());
        assertThat(shownOld.status()).isEqualTo("cancelled");
        // once only: the old batch names its retry
        assertThat(retries.retry(old.id(), CALLER)).isInstanceOfSatisfying(BatchOutcome.Conflict.class, c -> {
            assertThat(c.error().code()).isEqualTo(ApiErrorCodes.ALREADY_RETRIED);
            assertThat(c.error().message()).contains(retry.id());
        });
    }

    @Test
    void retry_shouldAnswerConflicts_forARunningBatch_oneWithNothingToRetry_andOneWhoseInputIsGone() {
        // given
        BatchState runningBatch = running(1);
        BatchState allSucceeded = ended(new LineCounts(4, 0, 0, 0, 2), true);
        BatchState inputGone = ended(new LineCounts(0, 2, 0, 0, 0), false);
        BatchState refusedInput = running(1);
        store.update(refusedInput.id(), s -> Optional.of(s.failed(List.of(), NOW)));

        // then
        assertThat(conflict(runningBatch)).isEqualTo(ApiErrorCodes.NOT_ENDED);
        assertThat(conflict(allSucceeded)).isEqualTo(ApiErrorCodes.NOTHING_TO_RETRY);
        assertThat(conflict(refusedInput)).isEqualTo(ApiErrorCodes.NOTHING_TO_RETRY);
        assertThat(conflict(inputGone)).isEqualTo(ApiErrorCodes.INPUT_FILE_MISSING);
        assertThat(store.read(allSucceeded.id()).orElseThrow().state().retriedBy()).isNull();
        assertThat(tasks()).isEmpty();
    }

    @Test
    void retry_shouldAnswerAnotherCallersBatchAsUnknown() {
        // given
        BatchState old = ended(new LineCounts(0, 1, 0, 0, 0), true);
        Owner other = callerOwner("someone-else");

        // then: exactly the answer of an id that does not exist
        assertThat(retries.retry(old.id(), CallerOwners.only(other))).isEqualTo(new BatchOutcome.NotFound(old.id()));
        assertThat(retries.retry("batch_nope", CALLER)).isInstanceOf(BatchOutcome.InvalidId.class);
        assertThat(store.read(old.id()).orElseThrow().state().retriedBy()).isNull();
    }

    @Test
    void retry_shouldCountAgainstTheCallersBatchLimit_andTakeTheLinkBack_whenRefused() {
        // given: a caller allowed one unfinished batch, which it has
        Owner limited = callerOwner("one-batch-" + UUID.randomUUID());
        BatchQuota quota = new OwnerBatchQuota(new OwnerQuotas(new S3QuotaLedgers(s3, aws.bucket()), CLOCK,
                Duration.ofSeconds(10)), new OwnerQuotas.Limit(1, Duration.ofDays(15), 8, Duration.ofSeconds(30)),
                store, BatchLinesQuota.UNLIMITED);
        BatchService limitedService = new BatchService(store, Optional.of(new SqsBatchTasks(sqs,
                aws.queueUrl(LocalAws.BATCH_QUEUE))), CLOCK, Duration.ofHours(1), Duration.ofMinutes(15),
                UUID::randomUUID, quota);
        BatchRetries limitedRetries = new BatchRetries(limitedService, store, CLOCK, UUID::randomUUID);
        BatchState old = endedOf(limited, new LineCounts(0, 1, 0, 0, 0), true);
        String input = upload(limited, "{}\n");
        assertThat(limitedService.create("{\"input_file_id\":\"" + input + "\",\"endpoint\":"
                + "\"/v1/completions\"}", limited)).isInstanceOf(BatchOutcome.Found.class);
        tasks();

        // when
        BatchOutcome outcome = limitedRetries.retry(old.id(), CallerOwners.only(limited));

        // then: refused like any batch over the limit; the old batch is free to be retried later
        assertThat(outcome).isInstanceOfSatisfying(BatchOutcome.QuotaExceeded.class,
                q -> assertThat(q.limit()).isEqualTo(1));
        assertThat(store.read(old.id()).orElseThrow().state().retriedBy()).isNull();
        assertThat(tasks()).isEmpty();
    }

    @Test
    void create_shouldAnswerQuotaExceededNamingTheLineCap_whileTheCallersBatchesHoldIt() {
        // given: a caller capped at 6 lines of unfinished batches, whose running batch was counted with 6 lines
        Owner capped = callerOwner("six-lines-" + UUID.randomUUID());
        OwnerQuotas quotas = new OwnerQuotas(new S3QuotaLedgers(s3, aws.bucket()), CLOCK, Duration.ofSeconds(10));
        BatchLinesQuota lines = new BatchLinesQuota(quotas, new OwnerQuotas.Limit(6, Duration.ofDays(15), 8,
                Duration.ofSeconds(30)), store);
        BatchService cappedService = new BatchService(store, Optional.of(new SqsBatchTasks(sqs,
                aws.queueUrl(LocalAws.BATCH_QUEUE))), CLOCK, Duration.ofHours(1), Duration.ofMinutes(15),
                UUID::randomUUID, new OwnerBatchQuota(quotas, new OwnerQuotas.Limit(100, Duration.ofDays(15), 8,
                Duration.ofSeconds(30)), store, lines));
        BatchState running = BatchState.created(BatchIds.newBatchId(UUID.randomUUID()), new BatchRequest(
                upload(capped, "{}\n"), BatchEndpoint.COMPLETIONS, "24h", null, null), capped, NOW);
        store.create(running).orElseThrow();
        assertThat(lines.admit(running, 6)).isEmpty();
        String body = "{\"input_file_id\":\"" + upload(capped, "{}\n") + "\",\"endpoint\":\"/v1/completions\"}";

        // when
        BatchOutcome refused = cappedService.create(body, capped);

        // then: 429 naming the cap, nothing handed to the batch function; once the running batch ends, it goes
        assertThat(refused).isInstanceOfSatisfying(BatchOutcome.QuotaExceeded.class, q -> {
            assertThat(q.kind()).isEqualTo(QuotaKind.BATCH_LINES);
            assertThat(q.limit()).isEqualTo(6);
        });
        assertThat(tasks()).isEmpty();
        quotas.release(capped, QuotaKind.BATCH_LINES, running.id());
        assertThat(cappedService.create(body, capped)).isInstanceOf(BatchOutcome.Found.class);
        assertThat(tasks()).hasSize(1);
    }

    @Test
    void filePage_shouldServeTheLinesEndedSoFar_ofARunningAndAnEndedChunk() {
        // given: chunk 0 ended (its parts written); in chunk 1, line 1001 succeeded, 1002 runs, 1003 was no request
        BatchState state = running(2);
        String part = "{\"custom_id\":\"from-part\"}\n";
        files.put(BatchLayout.partKey(state.id(), 0, BatchLayout.File.OUTPUT), part.getBytes(StandardCharsets.UTF_8));
        store.createEmpty(BatchLayout.endedKey(state.id(), 0, new LineCounts(1000, 0, 0, 0, 0)));
        String done = BatchIds.jobId(state.id(), 1001);
        files.createManifest(new ChunkManifest(state.id(), 1, 1001, List.of(
                new ChunkManifest.Entry(1001, "done", done, null),
                new ChunkManifest.Entry(1002, "running", BatchIds.jobId(state.id(), 1002), null),
                new ChunkManifest.Entry(1003, "wrong-url", null, LineError.of(LineError.INVALID_URL, "no")))));
        s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(done)), RequestBody.fromString(
                JobJson.write(new JobResult(done, JobStatus.SUCCEEDED, Task.GENERATE, JobResult.Output.text(
                        "Once upon a time.", JobResult.Usage.of(4, 5), "stop"), null, Tier.of("small"),
                        "stories260K", null, 40L, 5L, 1, null, null, NOW))));
        store.createEmpty(BatchLayout.doneKey(state.id(), 1, 1001, LineOutcome.SUCCEEDED));
        store.createEmpty(BatchLayout.doneKey(state.id(), 1, 1003, LineOutcome.INVALID));

        // when
        BatchOutcome.FilePage ended = page(state, BatchLayout.File.OUTPUT, null);
        BatchOutcome.FilePage output = page(state, BatchLayout.File.OUTPUT, "1");
        BatchOutcome.FilePage errors = page(state, BatchLayout.File.ERRORS, "1");

        // then
        assertThat(ended.jsonl()).isEqualTo(part);
        assertThat(ended.pages()).isEqualTo(2);
        assertThat(output.jsonl().lines().map(l -> JobJson.read(l, JsonNode.class))).singleElement()
                .satisfies(l -> {
                    assertThat(l.path("custom_id").asText()).isEqualTo("done");
                    assertThat(l.at("/response/body/choices/0/message/content").asText())
                            .isEqualTo("Once upon a time.");
                });
        assertThat(errors.jsonl().lines().map(l -> JobJson.read(l, JsonNode.class))).singleElement()
                .satisfies(l -> assertThat(l.at("/error/code").asText()).isEqualTo(LineError.INVALID_URL));
        assertThat(pages.page(state.id(), CALLER, BatchLayout.File.OUTPUT, "2")).isInstanceOfSatisfying(
                BatchOutcome.Rejected.class, r -> assertThat(r.errors()).extracting(FieldError::field)
                        .containsExactly("page"));
        assertThat(pages.page(state.id(), CALLER, BatchLayout.File.OUTPUT, "x"))
                .isInstanceOf(BatchOutcome.Rejected.class);
        assertThat(pages.page(state.id(), CallerOwners.only(callerOwner("nosy")),
                BatchLayout.File.OUTPUT, null)).isEqualTo(new BatchOutcome.NotFound(state.id()));
    }

    private BatchOutcome.FilePage page(BatchState state, BatchLayout.File file, String page) {
        return (BatchOutcome.FilePage) pages.page(state.id(), CALLER, file, page);
    }

    private String conflict(BatchState batch) {
        return ((BatchOutcome.Conflict) retries.retry(batch.id(), CALLER)).error().code();
    }

    /** An ended (cancelled) batch of one chunk whose ended record has {@code counts}; its input kept or gone. */
    private BatchState ended(LineCounts counts, boolean inputKept) {
        return endedOf(OWNER, counts, inputKept);
    }

    private BatchState endedOf(Owner owner, LineCounts counts, boolean inputKept) {
        String input = inputKept ? upload(owner, "{}\n") : BatchLayout.inputKey(owner, UUID.randomUUID());
        BatchState state = BatchState.created(BatchIds.newBatchId(UUID.randomUUID()), new BatchRequest(input,
                BatchEndpoint.CHAT_COMPLETIONS, "24h", Map.of("description", "nightly eval"), null), owner, NOW)
                .planned(new BatchPlan(counts.ended(), List.of(new ChunkPlan(0, 1, 0, 3, counts.ended(),
                        List.of()))), NOW).cancelling(NOW).finished(counts, null, null, NOW, NOW);
        store.create(state).orElseThrow();
        store.createFinal(state);
        store.createEmpty(BatchLayout.endedKey(state.id(), 0, counts));
        return state;
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

    @Test
    void upload_shouldHandOutAUrlThatS3RefusesForAnyOtherLength_thanTheDeclaredBytes() throws Exception {
        // given: an upload URL for a file of 18 bytes
        String declared = "{\"custom_id\":\"ab\"}\n";
        UploadResponse upload = granted(service.upload(OWNER, "{\"bytes\":" + declared.length() + "}"));

        // when: a longer body, then the declared one
        int longer = put(upload, declared + "{\"custom_id\":\"c\"}\n");
        int exact = put(upload, declared);

        // then: S3 refuses the longer body (Content-Length is signed) and takes the declared one
        assertThat(upload.bytes()).isEqualTo(declared.length());
        assertThat(longer).isEqualTo(403);
        assertThat(exact).isEqualTo(200);
        assertThat(store.size(upload.inputFileId())).contains((long) declared.length());
    }

    @Test
    void upload_shouldAnswerTooManyUntilTheNextHour_whenTheCallerHadItsHourlyUploadUrls() {
        // given: a limit of 2 upload URLs per hour, for a caller of its own
        Owner caller = callerOwner("uploader-" + UUID.randomUUID());
        Instant at = Instant.parse("2026-12-01T10:40:00Z");
        BatchService limited = uploadsLimitedTo(2, Clock.fixed(at, ZoneOffset.UTC));
        granted(limited.upload(caller, "{\"bytes\":10}"));
        granted(limited.upload(caller, "{\"bytes\":10}"));

        // when
        UploadOutcome third = limited.upload(caller, "{\"bytes\":10}");
        UploadOutcome nextHour = uploadsLimitedTo(2, Clock.fixed(at.plusSeconds(1_200), ZoneOffset.UTC))
                .upload(caller, "{\"bytes\":10}");
        UploadOutcome otherCaller = limited.upload(OWNER, "{\"bytes\":10}");

        // then: refused until 11:00, granted from then on; another caller has its own count
        assertThat(third).isEqualTo(new UploadOutcome.TooMany(2, Duration.ofMinutes(20)));
        assertThat(nextHour).isInstanceOf(UploadOutcome.Granted.class);
        assertThat(otherCaller).isInstanceOf(UploadOutcome.Granted.class);
    }

    @Test
    void upload_shouldRejectNamingBytes_whenTheSizeIsMissingOrOutOfRange() {
        assertThat(((UploadOutcome.Rejected) service.upload(OWNER, "")).errors())
                .extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("bytes", "required"));
        assertThat(((UploadOutcome.Rejected) service.upload(OWNER, "{\"bytes\":0}")).errors())
                .extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("bytes", "out_of_range"));
        assertThat(((UploadOutcome.Rejected) service.upload(OWNER, "{\"bytes\":209715201}")).errors())
                .extracting(FieldError::code).containsExactly("out_of_range");
        assertThat(((UploadOutcome.Rejected) service.upload(OWNER, "{\"bytes\":\"1\"}")).errors())
                .extracting(FieldError::code).containsExactly("invalid_type");
        assertThat(((UploadOutcome.Rejected) service.upload(OWNER, "not json")).errors())
                .extracting(FieldError::field).containsExactly("body");
    }

    private BatchService uploadsLimitedTo(int perHour, Clock clock) {
        return new BatchService(store, Optional.of(new SqsBatchTasks(sqs, aws.queueUrl(LocalAws.BATCH_QUEUE))),
                clock, Duration.ofHours(1), Duration.ofMinutes(15), UUID::randomUUID, BatchQuota.UNLIMITED,
                new UploadGrants(store, perHour, clock));
    }

    private static UploadResponse granted(UploadOutcome outcome) {
        assertThat(outcome).isInstanceOf(UploadOutcome.Granted.class);
        return ((UploadOutcome.Granted) outcome).upload();
    }

    private static int put(UploadResponse upload, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(upload.uploadUrl()))
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private String upload(String content) {
        return upload(OWNER, content);
    }

    private String upload(Owner owner, String content) {
        String key = BatchLayout.inputKey(owner, UUID.randomUUID());
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

    /** A JWT caller's owner (unkeyed: the services here take owners as given). */
    private static Owner callerOwner(String subject) {
        return OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", subject));
    }
}
