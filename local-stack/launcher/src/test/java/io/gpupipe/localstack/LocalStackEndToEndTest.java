package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localstack.console.TraceSpans;
import io.gpupipe.localstack.internal.ComponentEnvironment;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.serving.EmbeddedModels;
import io.gpupipe.testsupport.CallbackReceiver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The whole pipeline in this JVM and its child processes (the real router and notifier packages in lambda hosts, a
 * real worker process): jobs over HTTP and straight to SQS, results in S3, S3 events to the notifier, the metric
 * schedule. Only the small and speech tiers get a worker (and the embedding tier, where the GGUF is, for the nested
 * {@link EmbeddingJobs}), so jobs routed to large stay queued: that makes "cancel before start" deterministic.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalStackEndToEndTest {
    private static final Duration JOB_LIMIT = Duration.ofSeconds(90);
    private static final Path TEXT_MODEL = TestPaths.sharedModel();
    /** Three chat lines of up to 1,000 tokens each on the TinyStories model, on a shared 2-core machine. */
    private static final Duration BATCH_LIMIT = Duration.ofMinutes(5);
    /** shared-model's OpenAI example file (its README cites the pages its lines come from). */
    private static final Path OPENAI_EXAMPLE = TestPaths.repo().resolve(
            "shared-model/src/test/resources/batches/openai-example.jsonl");

    @TempDir
    Path cache;

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private LocalStack stack;
    private ApiClient api;
    private S3Client s3;
    private SqsClient sqs;

    @BeforeAll
    void start() throws IOException {
        RequiredPackages.assertBuilt();
        // not the @TempDir field: it is not injected yet when a PER_CLASS @BeforeAll runs
        Path traceFile = Files.createTempDirectory("gpupipe-e2e-").resolve("traces.jsonl");
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), cache).withFreePorts()
                .withWorkers(Files.isRegularFile(TEXT_MODEL) ? Set.of(Tier.of("small"), Tier.of("speech"),
                        Tier.of("embed")) : Set.of(Tier.of("small"), Tier.of("speech")))
                .withMetricInterval(Duration.ofSeconds(3))
                .withTextModel(Files.isRegularFile(TEXT_MODEL) ? TEXT_MODEL : null)
                .withTraceFile(traceFile);
        PrintStream tee = new PrintStream(new TeeStream(System.out, output), true, StandardCharsets.UTF_8);
        stack = StackAssembler.start(options, new Console(tee));
        api = new ApiClient(stack.apiUri());
        s3 = stack.aws().newS3Client();
        sqs = stack.aws().newSqsClient();
    }

    /** The embedding checks ({@link EmbeddingJobs}) on this class's stack. */
    @Nested
    class EmbeddingTest extends EmbeddingJobs {
        @Override
        LocalStack stack() {
            return stack;
        }
    }

    @AfterAll
    void stop() {
        if (s3 != null) {
            s3.close();
            sqs.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void speechJob_shouldSucceedWithAWavInS3_whenSubmittedOverHttp() {
        // given
        String id = UUID.randomUUID().toString();
        // when
        ApiClient.Reply submitted = api.submit("{\"requestId\":\"" + id + "\",\"task\":\"speech\","
                + "\"prompt\":\"The local stack speaks.\"}");
        JsonNode done = api.awaitTerminal(id, JOB_LIMIT);
        // then
        assertThat(submitted.status()).isEqualTo(202);
        assertThat(submitted.body().path("tier").asText()).isEqualTo("speech");
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("succeeded");
        String audioKey = done.path("result").path("result").path("audioKey").asText();
        assertThat(audioKey).isEqualTo("results/" + stored(id) + ".wav");
        ResponseBytes<GetObjectResponse> wav = s3.getObjectAsBytes(b -> b.bucket(LocalAws.BUCKET).key(audioKey));
        Wavs.Info info = Wavs.parse(wav.asByteArray());
        assertThat(info.channels()).isEqualTo(1);
        assertThat(info.sampleRate()).isPositive();
        assertThat(info.dataBytes()).isPositive();
        assertThat(info.durationSeconds()).isGreaterThan(0.3);
        assertThat(done.path("result").path("result").path("durationMs").asLong()).isPositive();
    }

    @Test
    void textJob_shouldSucceedWithTextAndUsage_whenTheTinyStoriesModelIsConfigured() {
        assumeTrue(Files.isRegularFile(TEXT_MODEL), "skipped: no text model at " + TEXT_MODEL
                + " (../shared/models/stories260K.gguf); the text path is tested where it exists");
        // given
        String id = UUID.randomUUID().toString();
        // when
        ApiClient.Reply submitted = api.submit("{\"requestId\":\"" + id + "\",\"prompt\":\"Once upon a time\","
                + "\"maxTokens\":48,\"temperature\":0}");
        JsonNode done = api.awaitTerminal(id, JOB_LIMIT);
        // then
        assertThat(submitted.status()).isEqualTo(202);
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("succeeded");
        JsonNode result = done.path("result").path("result");
        assertThat(result.path("text").asText()).isNotBlank();
        JsonNode usage = result.path("usage");
        assertThat(usage.path("promptTokens").asInt()).isPositive();
        assertThat(usage.path("completionTokens").asInt()).isBetween(1, 48);
        assertThat(usage.path("totalTokens").asInt())
                .isEqualTo(usage.path("promptTokens").asInt() + usage.path("completionTokens").asInt());
    }

    @Test
    void chatJob_shouldAnswerFromTheChatTemplatedMessages_whenTheTinyStoriesModelIsConfigured() {
        assumeTrue(Files.isRegularFile(TEXT_MODEL), "skipped: no text model at " + TEXT_MODEL
                + " (../shared/models/stories260K.gguf); the chat path is tested where it exists");
        // given: a chat job, and a prompt job whose prompt is that chat under ChatML (llama.cpp's fallback: the
        // TinyStories GGUF has no chat template of its own)
        String chatId = UUID.randomUUID().toString();
        String promptId = UUID.randomUUID().toString();
        String chatMl = "<|im_start|>system\\nYou tell stories.<|im_end|>\\n<|im_start|>user\\nTell me about Lily."
                + "<|im_end|>\\n<|im_start|>assistant\\n";
        // when
        ApiClient.Reply submitted = api.submit("{\"requestId\":\"" + chatId + "\",\"messages\":[{\"role\":"
                + "\"system\",\"content\":\"You tell stories.\"},{\"role\":\"user\",\"content\":"
                + "\"Tell me about Lily.\"}],\"maxTokens\":24,\"temperature\":0}");
        api.submit("{\"requestId\":\"" + promptId + "\",\"prompt\":\"" + chatMl + "\",\"maxTokens\":24,"
                + "\"temperature\":0}");
        JsonNode chat = api.awaitTerminal(chatId, JOB_LIMIT);
        JsonNode prompt = api.awaitTerminal(promptId, JOB_LIMIT);
        // then
        assertThat(submitted.status()).isEqualTo(202);
        assertThat(chat.path("status").asText()).as(chat.toString()).isEqualTo("succeeded");
        assertThat(prompt.path("status").asText()).as(prompt.toString()).isEqualTo("succeeded");
        JsonNode answer = chat.path("result").path("result");
        assertThat(answer.path("text").asText()).isNotBlank()
                .isEqualTo(prompt.path("result").path("result").path("text").asText());
        assertThat(answer.path("usage")).isEqualTo(prompt.path("result").path("result").path("usage"));
    }

    /** A person as a JSON Schema with an enum, an integer and a bounded string: what llama.cpp's grammar follows. */
    private static final String PERSON_FORMAT = "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"person\","
            + "\"strict\":true,\"schema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\","
            + "\"maxLength\":12},\"age\":{\"type\":\"integer\"},\"mood\":{\"enum\":[\"happy\",\"sad\"]}},"
            + "\"required\":[\"name\",\"age\",\"mood\"],\"additionalProperties\":false}}}";

    @Test
    void structuredJob_shouldAnswerJsonValidAgainstItsSchema_whenTheTinyStoriesModelIsConfigured() {
        assumeTrue(Files.isRegularFile(TEXT_MODEL), "skipped: no text model at " + TEXT_MODEL
                + " (../shared/models/stories260K.gguf); structured outputs are tested where it exists");
        // given
        String id = UUID.randomUUID().toString();
        // when: a chat job whose output must be a person
        ApiClient.Reply submitted = api.submit("{\"requestId\":\"" + id + "\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Tell me about Lily.\"}],\"maxTokens\":200,\"temperature\":0,\"responseFormat\":"
                + PERSON_FORMAT + "}");
        JsonNode done = api.awaitTerminal(id, JOB_LIMIT);
        // then: the text is one JSON object with exactly the schema's properties, of the schema's types
        assertThat(submitted.status()).isEqualTo(202);
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("succeeded");
        JsonNode person = JobJson.read(done.path("result").path("result").path("text").asText(), JsonNode.class);
        assertThat(person.isObject()).isTrue();
        assertThat(person.properties()).extracting(Map.Entry::getKey)
                .containsExactlyInAnyOrder("name", "age", "mood");
        assertThat(person.path("name").isTextual()).isTrue();
        assertThat(person.path("name").asText().codePointCount(0, person.path("name").asText().length()))
                .isLessThanOrEqualTo(12);
        assertThat(person.path("age").isIntegralNumber()).isTrue();
        assertThat(person.path("mood").asText()).isIn("happy", "sad");
    }

    @Test
    void structuredJob_shouldFailWithItsCodeAndKeepTheText_whenMaxTokensCutsTheDocument() {
        assumeTrue(Files.isRegularFile(TEXT_MODEL), "skipped: no text model at " + TEXT_MODEL
                + " (../shared/models/stories260K.gguf); structured outputs are tested where it exists");
        // given
        String id = UUID.randomUUID().toString();
        // when: three tokens cannot hold a person
        api.submit("{\"requestId\":\"" + id + "\",\"prompt\":\"Once upon a time\",\"maxTokens\":3,"
                + "\"temperature\":0,\"responseFormat\":" + PERSON_FORMAT + "}");
        JsonNode done = api.awaitTerminal(id, JOB_LIMIT);
        // then
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("failed");
        assertThat(done.path("result").path("error").path("code").asText())
                .isEqualTo(ErrorCodes.RESPONSE_FORMAT_VIOLATION);
        JsonNode raw = done.path("result").path("result");
        assertThat(raw.path("text").asText()).startsWith("{");
        assertThat(raw.path("finishReason").asText()).isEqualTo("length");
        assertThat(raw.path("usage").path("completionTokens").asInt()).isEqualTo(3);
    }

    @Test
    void structuredJob_shouldGet400NamingTheSchema_whenItIsNoJsonSchema() {
        // when
        ApiClient.Reply reply = api.submit("{\"prompt\":\"x\",\"responseFormat\":{\"type\":\"json_schema\","
                + "\"json_schema\":{\"name\":\"p\",\"schema\":{\"type\":\"strnig\"}}}}");
        // then
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body().path("errors")).extracting(e -> e.path("field").asText())
                .containsExactly("responseFormat.json_schema.schema");
    }

    @Test
    void queueJob_shouldProduceAResult_whenSentStraightToTheSpeechQueueWithTheSdk_andBeRefusedOnTheSmallOne() {
        // given
        String id = UUID.randomUUID().toString();
        String misrouted = UUID.randomUUID().toString();
        // when
        sqs.sendMessage(b -> b.queueUrl(stack.aws().queueUrl(Tier.of("speech"))).messageBody("{\"requestId\":\""
                + id + "\",\"task\":\"speech\",\"prompt\":\"Straight to the queue.\"}"));
        sqs.sendMessage(b -> b.queueUrl(stack.aws().queueUrl(LocalAws.DEFAULT_TEXT_QUEUE)).messageBody("{\"requestId\":\""
                + misrouted + "\",\"task\":\"speech\",\"prompt\":\"The text tier has no voice.\"}"));
        // a producer's job is the queue owner's, stored under the id derived from that owner and its requestId
        String stored = JobIds.stored(Owner.QUEUE, id);
        JobResult result = awaitResultObject(stored);
        JobResult refused = awaitResultObject(JobIds.stored(Owner.QUEUE, misrouted));
        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.tier()).isEqualTo(Tier.of("speech"));
        assertThat(result.result().audioKey()).isEqualTo("results/" + stored + ".wav");
        assertThat(result.owner()).isEqualTo(Owner.QUEUE.value());
        assertThat(result.clientRequestId()).isEqualTo(id);
        assertThat(api.status(id).status()).as("a queue job belongs to no API caller").isEqualTo(404);
        assertThat(refused.status()).isEqualTo(JobStatus.FAILED);
        assertThat(refused.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
        assertThat(refused.error().message()).contains("tier small cannot serve speech jobs");
        assertThat(objectExists("results/" + JobIds.stored(Owner.QUEUE, misrouted) + ".wav")).isFalse();
    }

    @Test
    void invalidJob_shouldGet400AndQueueNothing_whenAFieldIsOutOfRange() {
        // given
        String id = UUID.randomUUID().toString();
        int largeBefore = visibleMessages(LocalAws.ESCALATION_QUEUE);
        // when
        ApiClient.Reply reply = api.submit("{\"requestId\":\"" + id + "\",\"prompt\":\"x\",\"route\":\"large\","
                + "\"maxTokens\":0,\"temperature\":9}");
        // then
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body().path("errors")).extracting(e -> e.path("field").asText())
                .containsExactlyInAnyOrder("maxTokens", "temperature");
        assertThat(visibleMessages(LocalAws.ESCALATION_QUEUE)).isEqualTo(largeBefore);
        assertThat(objectExists("jobs/" + stored(id) + ".json")).isFalse();
        assertThat(api.status(id).status()).isEqualTo(404);
    }

    @Test
    void cancel_shouldEndCancelled_whenTheJobHasNotStarted() {
        // given: routed to large, whose worker is not running here, so it cannot start
        String id = UUID.randomUUID().toString();
        ApiClient.Reply submitted = api.submit("{\"requestId\":\"" + id + "\",\"prompt\":\"Never "
                + "answered.\",\"route\":\"large\"}");
        assertThat(submitted.status()).isEqualTo(202);
        assertThat(api.status(id).body().path("status").asText()).isEqualTo("queued");
        // when
        ApiClient.Reply cancelled = api.cancel(id);
        // then
        assertThat(cancelled.status()).isEqualTo(202);
        assertThat(cancelled.body().path("status").asText()).isEqualTo("cancelled");
        assertThat(api.status(id).body().path("status").asText()).isEqualTo("cancelled");
        assertThat(api.cancel(id).status()).as("cancelling again changes nothing").isEqualTo(200);
    }

    @Test
    void status_shouldMoveFromQueuedThroughRunningToSucceeded_whenAWorkerTakesTheJob() {
        // given
        String id = UUID.randomUUID().toString();
        List<String> seen = new ArrayList<>();
        // when
        ApiClient.Reply submitted = api.submit("{\"requestId\":\"" + id + "\",\"task\":\"speech\",\"prompt\":\""
                + "A somewhat longer sentence, so that the worker spends a moment on it. ".repeat(6) + "\"}");
        seen.add(submitted.body().path("status").asText());
        JsonNode done = api.awaitTerminal(id, JOB_LIMIT, seen::add);
        // then: statuses only move forward, and end succeeded
        List<String> order = List.of("queued", "running", "succeeded");
        assertThat(seen.get(0)).isEqualTo("queued");
        assertThat(seen).allMatch(order::contains);
        for (int i = 1; i < seen.size(); i++) {
            assertThat(order.indexOf(seen.get(i))).as("statuses seen: " + seen)
                    .isGreaterThanOrEqualTo(order.indexOf(seen.get(i - 1)));
        }
        assertThat(seen.get(seen.size() - 1)).isEqualTo("succeeded");
        // and the marker proves the running step even when polling was too slow to see it
        Instant submittedAt = Instant.parse(done.path("submittedAt").asText());
        Instant startedAt = Instant.parse(done.path("startedAt").asText());
        Instant finishedAt = Instant.parse(done.path("result").path("timestamp").asText());
        assertThat(startedAt).isAfterOrEqualTo(submittedAt).isBeforeOrEqualTo(finishedAt);
    }

    @Test
    void results_shouldReachTheNotifierAndSignedCallback_whenAResultIsWritten() throws Exception {
        assumeTrue(stack.functions().notifier().isPresent(),
                "skipped: functions/result-notifier/target/function.zip not built");
        // given: a callback receiver on localhost (allow-listed for the local stack)
        String id = UUID.randomUUID().toString();
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            // when
            api.submit("{\"requestId\":\"" + id + "\",\"task\":\"speech\",\"prompt\":\"Call me back.\","
                    + "\"callbackUrl\":\"" + receiver.url("/hook") + "\"}");
            awaitTrue(() -> !receiver.received("/hook").isEmpty(), "the callback for " + id);
            CallbackReceiver.Received received = receiver.received("/hook").get(0);
            // then
            assertThat(received.body()).contains(id).contains("succeeded");
            assertThat(received.verifiedBy(ComponentEnvironment.CALLBACK_SECRET)).isTrue();
            awaitTrue(() -> stack.standIns().sns().orElseThrow().published().stream()
                    .anyMatch(p -> p.message().contains(id)), "an SNS success message for " + id);
        }
    }

    @Test
    void sameDeterministicJobTwice_shouldBeAnsweredFromTheCacheTheSecondTime_withoutAQueueOrAModel()
            throws Exception {
        assumeTrue(stack.functions().notifier().isPresent(),
                "skipped: functions/result-notifier/target/function.zip not built");
        // given: a speech job asking for the cache, run once by the speech worker, which then writes the entry
        String body = "\"task\":\"speech\",\"prompt\":\"Say it once, hear it twice " + UUID.randomUUID()
                + ".\",\"cache\":true";
        String first = UUID.randomUUID().toString();
        assertThat(api.submit("{\"requestId\":\"" + first + "\"," + body + "}").status()).isEqualTo(202);
        assertThat(api.awaitTerminal(first, JOB_LIMIT).path("status").asText()).isEqualTo("succeeded");
        CacheKey key = CacheKey.of(EmbeddedModels.FREETTS_VERSION, ((JobRequestParser.Outcome.Valid)
                new JobRequestParser().parse("{" + body + "}", JobRequestParser.Source.API)).job()
                .submittedBy(stack.aws().ownerIds().of(CallerIdentity.ANONYMOUS)));
        awaitTrue(() -> objectExists(key.entryObjectKey()), "the cache entry " + key.hex());
        String second = UUID.randomUUID().toString();
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            // when: the same job under another requestId, with a callback
            ApiClient.Reply hit = api.submit("{\"requestId\":\"" + second + "\"," + body + ",\"callbackUrl\":"
                    + "\"" + receiver.url("/cached") + "\"}");
            // then: answered at once, cached, from the first job, with its own audio
            assertThat(hit.status()).as(hit.body().toString()).isEqualTo(200);
            assertThat(hit.body().path("status").asText()).isEqualTo("succeeded");
            JsonNode result = hit.body().path("result");
            assertThat(result.path("cached").asBoolean()).isTrue();
            assertThat(result.path("cachedFrom").asText()).as("the client's own id").isEqualTo(first);
            String audioKey = result.path("result").path("audioKey").asText();
            assertThat(audioKey).isEqualTo("results/" + stored(second) + ".wav");
            assertThat(Wavs.parse(s3.getObjectAsBytes(b -> b.bucket(LocalAws.BUCKET).key(audioKey)).asByteArray())
                    .dataBytes()).isPositive();
            // and the notifier called back as for any result
            awaitTrue(() -> !receiver.received("/cached").isEmpty(), "the callback for " + second);
            String event = receiver.received("/cached").get(0).body();
            assertThat(JobJson.mapper().readTree(event).path("cached").asBoolean()).isTrue();
            assertThat(event).contains(second);
            awaitTrue(() -> stack.standIns().sns().orElseThrow().published().stream()
                    .anyMatch(p -> p.message().contains(second)), "an SNS success message for " + second);
        }
        // and no worker ever saw it: its marker was never claimed, and no worker line names it
        assertThat(api.status(second).body().path("startedAt").isMissingNode()).isTrue();
        assertThat(output.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.startsWith("[worker-")).filter(line -> line.contains(stored(second)))).isEmpty();
        assertThat(output.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.startsWith("[worker-")).anyMatch(line -> line.contains(stored(first)))).isTrue();
    }

    @Test
    void trace_shouldFollowOneJobFromRouterThroughWorkerToNotifier_whenTheTraceFileIsOn() {
        assumeTrue(stack.functions().notifier().isPresent(),
                "skipped: functions/result-notifier/target/function.zip not built");
        // given
        String id = UUID.randomUUID().toString();
        // when
        api.submit("{\"requestId\":\"" + id + "\",\"task\":\"speech\",\"prompt\":\"Follow this job.\"}");
        JsonNode done = api.awaitTerminal(id, JOB_LIMIT);
        String traceId = done.path("result").path("traceId").asText();
        List<String> steps = List.of("router submit", "worker job", "queue wait", "marker claim", "model call",
                "result write", "result notify");
        List<TraceSpans.Span> trace = new ArrayList<>();
        awaitTrue(() -> {
            trace.clear();
            // spans name the id the job is stored under, the one every component sees
            trace.addAll(TraceSpans.ofJob(TraceSpans.read(stack.options().traceFile()), stored(id)));
            return trace.stream().map(TraceSpans.Span::name).collect(Collectors.toSet()).containsAll(steps);
        }, "every step of " + id + " in the trace file");
        System.out.println(TraceTimeline.render(trace));
        // then: one trace, the one the result names, across three components
        assertThat(done.path("status").asText()).isEqualTo("succeeded");
        assertThat(trace).allSatisfy(span -> assertThat(span.traceId()).isEqualTo(traceId));
        assertThat(trace).extracting(TraceSpans.Span::service).contains("router", "gpu-worker",
                "result-notifier");
        TraceSpans.Span submit = span(trace, "router submit");
        TraceSpans.Span job = span(trace, "worker job");
        TraceSpans.Span notify = span(trace, "result notify");
        assertThat(submit.parentSpanId()).isNull();
        assertThat(job.parentSpanId()).isEqualTo(submit.spanId());
        assertThat(notify.parentSpanId()).isEqualTo(job.spanId());
        assertThat(span(trace, "model call").parentSpanId()).isEqualTo(job.spanId());
        // in order: submitted, run, written, notified
        assertThat(submit.startNanos()).isLessThan(job.startNanos());
        assertThat(span(trace, "result write").endNanos()).isLessThanOrEqualTo(job.endNanos());
        assertThat(job.startNanos()).isLessThan(notify.startNanos());
    }

    private static TraceSpans.Span span(List<TraceSpans.Span> trace, String name) {
        return trace.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void scalingMetric_shouldPublishTheDesiredTasksOfEachTier_whenTheScheduleFires() {
        assumeTrue(stack.functions().scalingMetric().isPresent(),
                "skipped: functions/scaling-metric/target/function.zip not "
                + "built");
        // when: the schedule runs every 3 s in this test
        CloudWatchStandIn cloudWatch = stack.standIns().cloudWatch().orElseThrow();
        awaitTrue(() -> !cloudWatch.puts().isEmpty(), "a PutMetricData call from the scaling-metric function");
        // then
        assertThat(stack.events().schedule().orElseThrow().runs()).isPositive();
        assertThat(cloudWatch.puts().stream().flatMap(call -> call.data().stream()))
                .allMatch(d -> !Double.isNaN(d.value()));
    }

    @Test
    void printedExamples_shouldWorkAsPrinted_whenRunInAShell() throws Exception {
        assumeTrue(onPath("curl"), "skipped: curl is not installed");
        // given
        Banner.ExampleIds ids = Banner.ExampleIds.random();
        List<Banner.Example> examples = Banner.examples(stack.apiUri(), stack.aws(), ids);
        // when, then: the curl examples
        assertThat(shell(examples.get(0).command())).contains("\"status\":\"queued\"").contains(ids.speech());
        assertThat(shell(examples.get(1).command())).contains("\"status\":\"queued\"").contains(ids.text());
        api.awaitTerminal(ids.speech(), JOB_LIMIT);
        assertThat(shell(examples.get(2).command())).contains("\"status\":\"succeeded\"");
        assumeTrue(onPath("aws"), "skipped the AWS CLI examples: aws is not installed");
        assertThat(shell(examples.get(3).command())).contains("MessageId");
        awaitResultObject(JobIds.stored(Owner.QUEUE, ids.direct()));
        assertThat(shell(examples.get(4).command())).contains("\"clientRequestId\":\"" + ids.direct() + "\"")
                .contains("\"status\":\"succeeded\"");
        Path dir = Files.createTempDirectory("wav");
        shellIn(dir, examples.get(5).command());
        assertThat(Wavs.parse(Files.readAllBytes(dir.resolve("hello.wav"))).dataBytes()).isPositive();
    }

    @Test
    void batch_shouldFinishWithOpenAiFilesAndOneSignedEvent_whenTheOpenAiExampleFileIsUploaded() throws Exception {
        assumeTrue(stack.events().batch().isPresent() && stack.functions().notifier().isPresent(), "skipped: functions/batch or "
                + "functions/result-notifier not built");
        // given: a webhook receiver, and the OpenAI example file uploaded through the presigned PUT
        try (CallbackReceiver hooks = new CallbackReceiver()) {
            String input = upload(Files.readAllBytes(OPENAI_EXAMPLE));

            // when
            ApiClient.Reply created = api.post("/v1/batches", "{\"input_file_id\":\"" + input + "\",\"endpoint\":"
                    + "\"/v1/chat/completions\",\"completion_window\":\"24h\",\"callback_url\":\""
                    + hooks.url("/batch-hook") + "\"}");
            String id = created.body().path("id").asText();
            JsonNode done = api.awaitBatch(id, BATCH_LIMIT);

            // then: every line in exactly one file, in OpenAI's formats
            assertThat(created.status()).isEqualTo(200);
            assertThat(created.body().path("status").asText()).isEqualTo("validating");
            assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("completed");
            assertThat(done.at("/request_counts/total").asInt()).isEqualTo(9);
            assertThat(done.at("/request_counts/completed").asInt() + done.at("/request_counts/failed").asInt())
                    .isEqualTo(9);
            List<JsonNode> output = download(done.path("output_file_url").asText(null));
            List<JsonNode> errors = download(done.path("error_file_url").asText(null));
            assertThat(output.size() + errors.size()).isEqualTo(9);
            List<String> customIds = new ArrayList<>();
            output.forEach(l -> customIds.add(l.path("custom_id").asText("<none>")));
            errors.forEach(l -> customIds.add(l.path("custom_id").asText("<none>")));
            assertThat(customIds).containsExactlyInAnyOrder("request-1", "request-2", "request-3", "request-5",
                    "bad-role", "request-1", "wrong-url", "<none>", "<none>");
            assertThat(errors).extracting(l -> l.path("error").path("code").asText(
                    l.at("/response/body/error/code").asText())).contains("out_of_range", "duplicate_custom_id",
                    "invalid_url", "invalid_json", "invalid_custom_id");
            if (Files.isRegularFile(TEXT_MODEL)) {
                assertThat(output).hasSize(3).allSatisfy(l -> assertThat(l.at(
                        "/response/body/choices/0/message/content").asText()).isNotBlank());
            }
            // and one batch event, on SNS and signed to the callback
            awaitTrue(() -> hooks.received("/batch-hook").size() == 1, "the batch callback");
            assertThat(hooks.received("/batch-hook").get(0).event().path("type").asText())
                    .isEqualTo("batch.completed");
            assertThat(hooks.received("/batch-hook")).allSatisfy(call -> assertThat(call.verifiedBy(
                    ComponentEnvironment.CALLBACK_SECRET)).isTrue());
            assertThat(stack.standIns().sns().orElseThrow().published().stream().filter(p -> p.message().contains(id)))
                    .hasSize(1);
        }
    }

    @Test
    void batchCancel_shouldEndCancelled_withTheQueuedLinesInTheErrorFile() {
        assumeTrue(stack.events().batch().isPresent(), "skipped: functions/batch not built");
        // given: lines routed to large, whose worker is not running here, so none can start
        String line = "{\"custom_id\":\"c%d\",\"method\":\"POST\",\"url\":\"/v1/completions\",\"body\":"
                + "{\"model\":\"large\",\"prompt\":\"Never answered.\"}}\n";
        String input = upload((line.formatted(1) + line.formatted(2) + line.formatted(3))
                .getBytes(StandardCharsets.UTF_8));
        String id = api.post("/v1/batches", "{\"input_file_id\":\"" + input + "\",\"endpoint\":"
                + "\"/v1/completions\"}").body().path("id").asText();

        // when
        ApiClient.Reply cancelling = api.delete("/v1/batches/" + id);
        JsonNode done = api.awaitBatch(id, BATCH_LIMIT);

        // then
        assertThat(cancelling.status()).isEqualTo(200);
        assertThat(cancelling.body().path("status").asText()).isEqualTo("cancelling");
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("cancelled");
        assertThat(done.at("/request_counts/total").asInt()).isEqualTo(3);
        assertThat(done.at("/request_counts/completed").asInt()).isZero();
        assertThat(download(done.path("error_file_url").asText(null))).extracting(l -> l.at("/error/code").asText())
                .containsExactly("batch_cancelled", "batch_cancelled", "batch_cancelled");
        assertThat(api.delete("/v1/batches/" + id).status()).as("cancelling again changes nothing").isEqualTo(200);
    }

    @Test
    void batchCancelledHalfway_shouldKeepItsFinishedLines_andItsRetryShouldRunOnlyTheRest() {
        assumeTrue(stack.events().batch().isPresent() && stack.functions().notifier().isPresent(), "skipped: functions/batch or "
                + "functions/result-notifier not built");
        assumeTrue(Files.isRegularFile(TEXT_MODEL), "skipped: no text model at " + TEXT_MODEL
                + " (../shared/models/stories260K.gguf); the batch retry is tested end to end where it exists");
        // given: two lines the small tier runs, two routed to large, whose worker is not running here
        String small = "{\"custom_id\":\"%s\",\"method\":\"POST\",\"url\":\"/v1/completions\",\"body\":"
                + "{\"model\":\"small\",\"prompt\":\"Once upon a time\",\"max_tokens\":16}}\n";
        String large = "{\"custom_id\":\"%s\",\"method\":\"POST\",\"url\":\"/v1/completions\",\"body\":"
                + "{\"model\":\"large\",\"prompt\":\"Never answered here.\"}}\n";
        String input = upload((small.formatted("s1") + large.formatted("l1") + small.formatted("s2")
                + large.formatted("l2")).getBytes(StandardCharsets.UTF_8));
        String id = api.post("/v1/batches", "{\"input_file_id\":\"" + input + "\",\"endpoint\":"
                + "\"/v1/completions\",\"metadata\":{\"description\":\"halfway\"}}").body().path("id").asText();

        // when: the small lines have finished, the large ones wait
        JsonNode halfway = await("the small lines of " + id).atMost(BATCH_LIMIT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(200)).until(() -> api.get("/v1/batches/" + id).body(),
                        b -> b.at("/request_counts/completed").asInt() == 2);
        List<JsonNode> outputSoFar = api.jsonLines("/v1/batches/" + id + "/output");
        List<JsonNode> errorsSoFar = api.jsonLines("/v1/batches/" + id + "/errors");

        // then: the output is readable while the batch runs, with the lines finished so far
        assertThat(halfway.path("status").asText()).isEqualTo("in_progress");
        assertThat(halfway.at("/request_counts/total").asInt()).isEqualTo(4);
        assertThat(outputSoFar).extracting(l -> l.path("custom_id").asText()).containsExactly("s1", "s2");
        assertThat(outputSoFar).allSatisfy(l -> assertThat(l.at("/response/body/choices/0/text").asText())
                .isNotBlank());
        assertThat(errorsSoFar).isEmpty();
        assertThat(api.get("/v1/batches/" + id).body().path("status").asText()).as("still running").isEqualTo(
                "in_progress");
        assertThat(api.post("/v1/batches/" + id + "/retry", "").status()).as("not before it ended").isEqualTo(409);

        // when: cancelled halfway
        assertThat(api.delete("/v1/batches/" + id).status()).isEqualTo(200);
        JsonNode cancelled = api.awaitBatch(id, BATCH_LIMIT);

        // then: it keeps its finished lines
        assertThat(cancelled.path("status").asText()).as(cancelled.toString()).isEqualTo("cancelled");
        assertThat(cancelled.at("/request_counts/completed").asInt()).isEqualTo(2);
        assertThat(download(cancelled.path("output_file_url").asText(null))).extracting(l -> l.path("custom_id")
                .asText()).containsExactly("s1", "s2");
        assertThat(download(cancelled.path("error_file_url").asText(null))).extracting(l -> l.path("custom_id")
                .asText() + ":" + l.at("/error/code").asText()).containsExactly("l1:batch_cancelled",
                "l2:batch_cancelled");

        // when: retried
        ApiClient.Reply retried = api.post("/v1/batches/" + id + "/retry", "");
        String retryId = retried.body().path("id").asText();
        JsonNode retryRunning = await("retry batch " + retryId + " planned").atMost(BATCH_LIMIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> api.get("/v1/batches/" + retryId).body(), b -> b.path("status").asText()
                        .equals("in_progress"));

        // then: a new batch of only the rest, same custom_ids, linked both ways
        assertThat(retried.status()).as(retried.body().toString()).isEqualTo(200);
        assertThat(retried.body().at("/metadata/retry_of").asText()).isEqualTo(id);
        assertThat(retried.body().at("/metadata/description").asText()).isEqualTo("halfway");
        assertThat(api.get("/v1/batches/" + id).body().at("/metadata/retried_by").asText()).isEqualTo(retryId);
        assertThat(retryRunning.at("/request_counts/total").asInt()).isEqualTo(2);
        assertThat(api.post("/v1/batches/" + id + "/retry", "").body().at("/errors/0/code").asText())
                .isEqualTo("already_retried");
        // its lines wait on large as theirs did; cancelled, they show which lines it ran
        api.delete("/v1/batches/" + retryId);
        JsonNode retryDone = api.awaitBatch(retryId, BATCH_LIMIT);
        assertThat(retryDone.path("status").asText()).isEqualTo("cancelled");
        assertThat(download(retryDone.path("error_file_url").asText(null))).extracting(l -> l.path("custom_id")
                .asText()).containsExactly("l1", "l2");
        assertThat(retryDone.path("output_file_url").isMissingNode()).isTrue();
    }

    /** Uploads {@code content} through the presigned PUT the API hands out; the key to name in POST /v1/batches. */
    private String upload(byte[] content) {
        return api.uploadBatchInput(content);
    }

    /** The JSON lines of a presigned file link (none when the batch wrote no such file). */
    private List<JsonNode> download(String url) {
        return api.downloadLines(url);
    }

    /** Where the job the API's anonymous caller (no token) submitted as {@code clientId} is stored. */
    private String stored(String clientId) {
        return JobIds.stored(stack.aws().ownerIds().of(CallerIdentity.ANONYMOUS), clientId);
    }

    private JobResult awaitResultObject(String id) {
        return await("results/" + id + ".json").atMost(JOB_LIMIT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100)).until(() -> {
            try {
                return Optional.of(JobJson.read(s3.getObjectAsBytes(b -> b.bucket(LocalAws.BUCKET)
                        .key("results/" + id + ".json")).asUtf8String(), JobResult.class));
            } catch (NoSuchKeyException e) {
                return Optional.<JobResult>empty();
            }
        }, Optional::isPresent).orElseThrow();
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) {
        await(what).atMost(JOB_LIMIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(condition::getAsBoolean);
    }

    private int visibleMessages(String queue) {
        return Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(stack.aws().queueUrl(queue))
                .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }

    private boolean objectExists(String key) {
        try {
            s3.headObject(b -> b.bucket(LocalAws.BUCKET).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    private static boolean onPath(String program) {
        try {
            return new ProcessBuilder("bash", "-c", "command -v " + program).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String shell(String command) throws Exception {
        return shellIn(Path.of("").toAbsolutePath(), command);
    }

    private static String shellIn(Path dir, String command) throws Exception {
        Process process = new ProcessBuilder("bash", "-c", command).directory(dir.toFile()).redirectErrorStream(true)
                .start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(command + "\n" + out).isZero();
        return out;
    }
}
