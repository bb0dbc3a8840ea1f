package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.jobs.CancelOutcome;
import io.gpupipe.jobs.JobCanceller;
import io.gpupipe.jobs.JobLifecycle;
import io.gpupipe.jobs.JobSubmitter;
import io.gpupipe.jobs.RoutedJob;
import io.gpupipe.jobs.SubmitOutcome;
import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.jobs.quota.JobQuota;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.routing.RoutingPolicy;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;

/** A batch chunk's submission over ElasticMQ and S3Proxy: the router's rule, with batched sends. */
class JobSubmitterTest {
    private static LocalAws aws;
    private static S3Client s3;
    private static SqsClient sqs;
    private static ExecutorService pool;
    private static final List<SendMessageBatchRequest> BATCH_CALLS = Collections.synchronizedList(new ArrayList<>());

    /** A batch of its own per test, so that no test meets another's jobs. */
    private final String batch = BatchIds.newBatchId(UUID.randomUUID());
    private S3JobStore store;

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
        sqs = SqsClient.builder().endpointOverride(aws.sqsEndpoint()).region(Region.of(LocalAws.REGION))
                .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                        if (context.request() instanceof SendMessageBatchRequest request) {
                            BATCH_CALLS.add(request);
                        }
                    }
                })).build();
        pool = Executors.newFixedThreadPool(8);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
        sqs.close();
        s3.close();
        aws.close();
    }

    @BeforeEach
    void setUp() {
        store = new S3JobStore(s3, aws.newS3Presigner(), aws.bucket());
        for (Tier tier : aws.tiers().names()) {
            sqs.purgeQueue(b -> b.queueUrl(aws.queueUrl(tier)));
        }
        BATCH_CALLS.clear();
    }

    @Test
    void submitAll_shouldAcceptEveryJob_withAMarkerEachAndBatchedSendsPerTier() {
        // given: 13 small and 10 large lines
        List<RoutedJob> jobs = new ArrayList<>(lines(1, 13, null));
        jobs.addAll(lines(14, 10, Tier.of("large")));

        // when
        List<SubmitOutcome> outcomes = submitter(queue()).submitAll(jobs, pool);

        // then
        assertThat(outcomes).hasSize(23).extracting(o -> o.getClass().getSimpleName()).containsOnly("Accepted");
        assertThat(drain(LocalAws.DEFAULT_TEXT_QUEUE)).hasSize(13);
        assertThat(drain(LocalAws.ESCALATION_QUEUE)).hasSize(10);
        assertThat(BATCH_CALLS).hasSize(3).allMatch(call -> call.entries().size() <= 10);
        assertThat(jobs).allMatch(j -> store.readMarker(j.job().requestId()).orElseThrow().state().status()
                == JobStatus.QUEUED);
        assertThat(store.readMarker(jobs.get(0).job().requestId()).orElseThrow().state().batch())
                .isEqualTo(jobs.get(0).job().batch());
    }

    @Test
    void submitAll_shouldKeepEachCallWithinSqsBatchSize_whenJobsAreLarge() {
        // given: ten 60,000-character prompts (one batch of ten would be ~600 KB) and one too large for a message
        List<RoutedJob> jobs = new ArrayList<>();
        for (int line = 1; line <= 10; line++) {
            jobs.add(routed(line, "x".repeat(60_000), Tier.of("small")));
        }
        jobs.add(routed(11, "\u20ac".repeat(100_000), Tier.of("small")));

        // when
        List<SubmitOutcome> outcomes = submitter(queue()).submitAll(jobs, pool);

        // then: every call within SendMessageBatch's 262,144 bytes; the largest travels as a claim check
        assertThat(outcomes).extracting(o -> o.getClass().getSimpleName()).containsOnly("Accepted");
        assertThat(BATCH_CALLS).allSatisfy(call -> assertThat(call.entries().stream()
                .mapToInt(e -> JobMessage.utf8Length(e.messageBody())).sum()).isLessThanOrEqualTo(262_144));
        List<Message> sent = drain(LocalAws.DEFAULT_TEXT_QUEUE);
        assertThat(sent).hasSize(11);
        String big = jobs.get(10).job().requestId();
        assertThat(sent).filteredOn(m -> m.body().contains(big)).singleElement()
                .satisfies(m -> assertThat(JobMessage.payloadKey(m.body())).contains(JobLayout.payloadKey(big)));
    }

    @Test
    void submitAll_shouldEnqueueAgainOnlyTheStillQueuedJobs_whenTheSameChunkIsSubmittedAgain() {
        // given: a chunk submitted once, whose first three jobs have since finished
        List<RoutedJob> jobs = lines(1, 8, null);
        submitter(queue()).submitAll(jobs, pool);
        drain(LocalAws.DEFAULT_TEXT_QUEUE);
        for (RoutedJob done : jobs.subList(0, 3)) {
            JobResult result = JobResult.failed(done.job(), JobResult.JobError.of("model_error", "x"), null,
                    Instant.now());
            s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(result.requestId())),
                    RequestBody.fromString(JobJson.write(result)));
        }

        // when: the chunk's message is delivered again
        List<SubmitOutcome> again = submitter(queue()).submitAll(jobs, pool);

        // then: no second job anywhere; the five unfinished ones are on the queue once more (the worker
        // de-duplicates), the finished ones are not
        assertThat(again).extracting(o -> o.getClass().getSimpleName()).containsOnly("Duplicate");
        assertThat(drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> requestIdOf(m.body()))
                .containsExactlyInAnyOrderElementsOf(jobs.subList(3, 8).stream().map(j -> j.job().requestId())
                        .toList());
    }

    @Test
    void submitAll_shouldTakeEveryMarkerBack_whenTheQueueIsUnreachable() {
        // given
        List<RoutedJob> jobs = lines(1, 4, null);
        SqsClient down = SqsClient.builder().endpointOverride(URI.create("http://127.0.0.1:1"))
                .region(Region.of(LocalAws.REGION)).credentialsProvider(LocalAws.credentials())
                .httpClient(UrlConnectionHttpClient.create()).build();

        // when
        List<SubmitOutcome> outcomes;
        try (down) {
            outcomes = submitter(new SqsJobQueue(down, queueUrls(), JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES,
                    store::putPayload)).submitAll(jobs, pool);
        }

        // then: nothing reads queued without a message behind it
        assertThat(outcomes).extracting(o -> o.getClass().getSimpleName()).containsOnly("Unavailable");
        assertThat(jobs).allMatch(j -> store.readMarker(j.job().requestId()).isEmpty());
    }

    @Test
    void cancel_shouldCancelABatchLine_onlyWhenItsBatchAsks() {
        // given
        RoutedJob line = lines(1, 1, null).get(0);
        submitter(queue()).submitAll(List.of(line), pool);
        JobCanceller canceller = new JobCanceller(store, Clock.systemUTC(), JobQuota.UNLIMITED);
        String id = line.job().requestId();

        // when
        CancelOutcome byClient = canceller.cancel(id, JobCanceller.Scope.SINGLE_JOB);
        CancelOutcome byBatch = canceller.cancel(id, JobCanceller.Scope.BATCH_MEMBER);

        // then
        assertThat(byClient).isEqualTo(new CancelOutcome.PartOfBatch(((CancelOutcome.PartOfBatch) byClient).view(),
                batch));
        assertThat(byBatch).isInstanceOf(CancelOutcome.Cancelled.class);
        assertThat(store.readMarker(id).map(m -> m.state().status())).contains(JobStatus.CANCELLED);
        assertThat(canceller.cancel(id, JobCanceller.Scope.BATCH_MEMBER))
                .isInstanceOf(CancelOutcome.AlreadyCancelled.class);
    }

    private JobSubmitter submitter(JobQueue queue) {
        return JobLifecycle.of(store, queue, Clock.systemUTC()).submitter();
    }

    private SqsJobQueue queue() {
        return new SqsJobQueue(sqs, queueUrls(), JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES, store::putPayload);
    }

    private static Map<Tier, String> queueUrls() {
        Map<Tier, String> urls = new HashMap<>();
        aws.tiers().names().forEach(t -> urls.put(t, aws.queueUrl(t)));
        return urls;
    }

    private List<RoutedJob> lines(int first, int count, Tier route) {
        return IntStream.range(first, first + count).mapToObj(line -> routed(line, "Line " + line, route)).toList();
    }

    private RoutedJob routed(int line, String prompt, Tier route) {
        BatchMember member = new BatchMember(batch, 0, line, 1000);
        InferenceJob job = new InferenceJob(member.requestId(), Task.GENERATE, prompt, 16, 0.0, 1.0, route, null,
                null, null, 86_400, Instant.parse("2026-12-01T10:00:00Z"), null, null, null, null, null, null, member);
        return new RoutedJob(job, RoutingPolicy.defaults().route(job));
    }

    private static List<Message> drain(String queue) {
        List<Message> all = new ArrayList<>();
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(queue)).maxNumberOfMessages(10)
                    .waitTimeSeconds(1)).messages();
            if (batch.isEmpty()) {
                return all;
            }
            all.addAll(batch);
            batch.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(aws.queueUrl(queue)).receiptHandle(
                    m.receiptHandle())));
        }
    }

    private static String requestIdOf(String body) {
        return ((JobRequestParser.Outcome.Valid) new JobRequestParser().parse(body, JobRequestParser.Source.QUEUE))
                .job().requestId();
    }
}
