package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.S3CacheStore;
import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.SqsTierQueue;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.backend.openai.OpenAiBackend;
import io.gpupipe.worker.backend.openai.VllmClient;
import io.gpupipe.worker.standin.InjectVllmStandIn;
import io.gpupipe.worker.standin.VllmStandIn;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.LocalPipeline;
import io.opentelemetry.api.OpenTelemetry;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worker writes a result cache entry after its own success of a cacheable job, and only then: not after a
 * failure, not for a job the cache does not apply to, not under a model version nobody pinned. A worker of its own on
 * the large queue, with the openai backend configured with a pinned version against the app's vLLM stand-in; shares
 * the app and resources of {@link WorkerPipelineTest}.
 */
@QuarkusTest
class ResultCacheWriterTest {
    private static final Duration RESULT_TIMEOUT = Duration.ofSeconds(20);
    private static final String VERSION = "stand-in/tiny-llm@0123456789abcdef0123456789abcdef01234567+small-1";
    private static final JobRequestParser PARSER = new JobRequestParser();

    @InjectLocalAws
    LocalAws aws;

    @InjectVllmStandIn
    VllmStandIn standIn;

    @Inject
    InferenceBackend unpinned;

    @Inject
    WorkerLifecycle lifecycle;

    LocalPipeline pipeline;
    Worker worker;

    @BeforeEach
    void pipeline() {
        pipeline = new LocalPipeline(aws);
    }

    @AfterEach
    void stopWorker() {
        if (worker != null) {
            worker.drain(Duration.ofSeconds(1));
        }
        pipeline.close();
    }

    @Test
    void success_shouldWriteTheEntry_whenTheJobAsksForTheCacheAndTheVersionIsPinned() {
        // given
        start(pinnedBackend());
        String id = LocalPipeline.newRequestId();
        String body = LocalPipeline.job(id, "Cache this " + id, j -> j.put("temperature", 0.8).put("seed", 42)
                .put("cache", true));
        // when
        pipeline.send(LocalAws.ESCALATION_QUEUE, body);
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then: the seed reached vLLM, and the entry holds what the result says, keyed by the pinned version
        assertThat(standIn.lastCompletionRequest(id).orElseThrow().path("seed").asInt()).isEqualTo(42);
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        CacheEntry entry = awaitEntry(key(body));
        assertThat(entry.requestId()).isEqualTo(id);
        assertThat(entry.modelVersion()).isEqualTo(VERSION);
        assertThat(entry.output()).isEqualTo(result.result());
        assertThat(entry.createdAt()).isNotNull();
    }

    @Test
    void speechSuccess_shouldCopyTheAudioIntoTheCache_beforeWritingTheEntry() {
        // given: a worker of the speech tier (a text tier's worker refuses speech jobs: not_served)
        Tier speech = Tier.of("speech");
        start(pinnedBackend(), speech);
        String id = LocalPipeline.newRequestId();
        String body = LocalPipeline.job(id, "Speak " + id, j -> j.put("task", "speech").put("cache", true));
        // when
        pipeline.sqs().sendMessage(b -> b.queueUrl(aws.queueUrl(speech)).messageBody(body));
        pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        CacheEntry entry = awaitEntry(key(body));
        assertThat(entry.output().audioKey()).isEqualTo(key(body).audioObjectKey(id));
        assertThat(object(entry.output().audioKey())).contains(pipeline.audio(id).orElseThrow());
    }

    @Test
    void failure_shouldWriteNoEntry() {
        // given: a prompt longer than the stand-in's max-model-len, which fails at once (prompt_too_long)
        start(pinnedBackend());
        String id = LocalPipeline.newRequestId();
        String body = LocalPipeline.job(id, "word ".repeat(1100) + id, j -> j.put("cache", true));
        // when
        pipeline.send(LocalAws.ESCALATION_QUEUE, body);
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.error().code()).isEqualTo(ErrorCodes.PROMPT_TOO_LONG);
        assertNoEntry(key(body));
    }

    @Test
    void success_shouldWriteNoEntry_whenTheJobDoesNotAskAndTheTierDoesNotDefaultToIt() {
        // given
        start(pinnedBackend());
        String id = LocalPipeline.newRequestId();
        String body = LocalPipeline.job(id, "Not cached " + id);
        // when
        pipeline.send(LocalAws.ESCALATION_QUEUE, body);
        pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertNoEntry(key(body));
    }

    @Test
    void success_shouldWriteNoEntry_whenTheModelVersionIsNotPinned() {
        // given: the app's backend, whose version is only the root the server reports
        start(unpinned);
        String id = LocalPipeline.newRequestId();
        String body = LocalPipeline.job(id, "Unpinned " + id, j -> j.put("cache", true));
        // when
        pipeline.send(LocalAws.ESCALATION_QUEUE, body);
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertNoEntry(CacheKey.of(result.modelVersion(), parse(body)));
    }

    private void start(InferenceBackend backend) {
        start(backend, Tier.of("large"));
    }

    private void start(InferenceBackend backend, Tier tier) {
        await("the app's worker to start").atMost(Duration.ofSeconds(30)).until(() -> lifecycle.worker().isPresent());
        WorkerSettings settings = lifecycle.worker().orElseThrow().settings().withTier(tier)
                .withMaxInFlight(2).withoutAdaptiveWindow();
        worker = new Worker(settings, new SqsTierQueue(pipeline.sqs(), aws.queueUrl(tier),
                Optional.of(aws.queueUrl(LocalAws.DLQ))), new S3JobStore(pipeline.s3(), aws.bucket()), backend,
                new CapturedEvents(), Clock.systemUTC(), new ResultCacheWriter(new S3CacheStore(pipeline.s3(),
                aws.bucket()), TierCatalogue.bundled().get(tier), Clock.systemUTC()),
                OpenTelemetry.noop().getTracer("test"));
        worker.start();
    }

    private OpenAiBackend pinnedBackend() {
        VllmClient client = QuarkusRestClientBuilder.newBuilder().baseUri(standIn.url()).build(VllmClient.class);
        OpenAiBackend backend = new OpenAiBackend(client, new OpenAiBackend.Settings(Optional.of("stand-in/tiny-llm"),
                Optional.of(VERSION), Optional.empty(), Optional.empty(), Optional.of("test-key"), true,
                Optional.of("/models/stand-in/tiny-llm")));
        backend.ensureReady();
        return backend;
    }

    private CacheKey key(String body) {
        return CacheKey.of(VERSION, parse(body));
    }

    private static InferenceJob parse(String body) {
        return ((JobRequestParser.Outcome.Valid) PARSER.parse(body, JobRequestParser.Source.QUEUE)).job();
    }

    private CacheEntry awaitEntry(CacheKey key) {
        return await("cache entry " + key.hex()).atMost(RESULT_TIMEOUT)
                .until(() -> object(key.entryObjectKey())
                        .map(bytes -> JobJson.read(new String(bytes, java.nio.charset.StandardCharsets.UTF_8),
                                CacheEntry.class)), Optional::isPresent)
                .orElseThrow();
    }

    private void assertNoEntry(CacheKey key) {
        await("no cache entry " + key.hex()).during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(object(key.entryObjectKey())).isEmpty());
    }

    private Optional<byte[]> object(String key) {
        try {
            return Optional.of(pipeline.s3().getObjectAsBytes(b -> b.bucket(aws.bucket()).key(key)).asByteArray());
        } catch (software.amazon.awssdk.services.s3.model.NoSuchKeyException e) {
            return Optional.empty();
        }
    }
}
