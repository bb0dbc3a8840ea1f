package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.events.AwsEvents;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import io.gpupipe.model.api.ApiDescription;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Callers through the whole local stack (the facade's JWT authorizer, the real router, notifier, dead-letter and
 * batch packages, a speech and a small-text worker without a text model, so small jobs fail at once and large ones
 * stay queued), one started stack for every case: the authorization matrix (callers A and B × submit, resubmit of
 * one id with another body, status, cancel, batch create/status/cancel, presigned links: B never sees A's status,
 * result, links or existence), 401 for requests without a valid token, and the per-caller limit on unfinished jobs
 * (exact under 32 concurrent submitters, given back after failures, cancels and dead-lettered jobs). Each quota case
 * uses a caller of its own, so the matrix's callers never meet the limit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CallerIsolationTest {
    private static final int LIMIT = 4;
    private static final int SUBMITTERS = 32;
    private static final Duration JOB_LIMIT = Duration.ofSeconds(90);
    private static final Duration RELEASE_LIMIT = Duration.ofSeconds(60);
    /** Routed to large, whose worker does not run here: such a job stays queued. */
    private static final String STAYS_QUEUED = "\"prompt\":\"Wait here.\",\"route\":\"large\"";

    private LocalStack stack;
    private ApiClient callerA;
    private ApiClient callerB;
    private ApiClient anonymous;
    private ExecutorService pool;

    @BeforeAll
    void start() throws IOException {
        RequiredPackages.assertBuilt();
        Path cache = Files.createTempDirectory("gpupipe-callers-");
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), cache).withFreePorts()
                .withWorkers(Set.of(Tier.of("small"), Tier.of("speech"))).withConsole(false).withRequireToken(true);
        // a small limit to reach; a contention budget that a loaded 2-core machine cannot exhaust, so that a race's
        // losers are refused by the limit (429), not by a slow store (503)
        stack = StackAssembler.start(options, new Console(System.out), StackOverrides.none().withEnvironment("router",
                Map.of("GPUPIPE_ROUTER_QUOTA_MAX_UNFINISHED_JOBS", Integer.toString(LIMIT),
                        "GPUPIPE_ROUTER_QUOTA_CONTENTION", "60s")));
        anonymous = new ApiClient(stack.apiUri());
        callerA = anonymous.as(stack.callers().token(LocalCallers.CALLER_A));
        callerB = anonymous.as(stack.callers().token(LocalCallers.CALLER_B));
        pool = Executors.newFixedThreadPool(SUBMITTERS);
    }

    @AfterAll
    void stop() {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void jobOfA_shouldNotExistForB_whenBReadsCancelsOrResubmitsItsId() {
        // given: A's speech job, finished, with its result and presigned links
        String id = UUID.randomUUID().toString();
        ApiClient.Reply submitted = callerA.submit("{\"requestId\":\"" + id + "\",\"task\":\"speech\","
                + "\"prompt\":\"Words only A may hear.\"}");
        JsonNode doneForA = callerA.awaitTerminal(id, JOB_LIMIT);
        assertThat(submitted.status()).isEqualTo(202);
        assertThat(doneForA.path("status").asText()).as(doneForA.toString()).isEqualTo("succeeded");
        assertThat(doneForA.path("requestId").asText()).isEqualTo(id);
        String resultUrl = doneForA.path("resultUrl").asText();
        assertThat(resultUrl).isNotBlank();

        // when, then: B's status and cancel answer exactly as for an id nobody used
        String unused = UUID.randomUUID().toString();
        assertSameAnswer(callerB.status(id), callerB.status(unused), id, unused, 404);
        assertSameAnswer(callerB.cancel(id), callerB.cancel(unused), id, unused, 404);

        // when: B submits the same id with another body
        ApiClient.Reply resubmitted = callerB.submit("{\"requestId\":\"" + id + "\"," + STAYS_QUEUED + "}");
        ApiClient.Reply seenByB = callerB.status(id);

        // then: a job of B's own, never A's status, result or links
        assertThat(resubmitted.status()).as(resubmitted.body().toString()).isEqualTo(202);
        assertThat(resubmitted.body().path("requestId").asText()).isEqualTo(id);
        assertThat(resubmitted.body().path("status").asText()).isEqualTo("queued");
        assertThat(seenByB.status()).isEqualTo(200);
        assertThat(seenByB.body().path("status").asText()).isEqualTo("queued");
        assertThat(seenByB.body().path("tier").asText()).isEqualTo("large");
        for (ApiClient.Reply reply : List.of(resubmitted, seenByB)) {
            assertThat(reply.body().has("result")).as(reply.body().toString()).isFalse();
            assertThat(reply.body().toString()).doesNotContain(storedIdOf(LocalCallers.CALLER_A, id))
                    .doesNotContain("succeeded").doesNotContain("audio");
        }
        // and A's job is untouched
        JsonNode stillA = callerA.status(id).body();
        assertThat(stillA.path("status").asText()).isEqualTo("succeeded");
        assertThat(stillA.path("tier").asText()).isEqualTo("speech");
        assertThat(callerB.cancel(id).status()).as("B cancels its own job").isEqualTo(202);
        assertThat(callerA.status(id).body().path("status").asText()).isEqualTo("succeeded");
        // the presigned link reached A only, and works
        assertThat(get(resultUrl)).contains("\"status\":\"succeeded\"");
        // and so did the objects' S3 URIs, which name the stored id (not the requestId) and read from the bucket
        String bucket = "s3://" + stack.aws().bucket() + "/";
        String stored = storedIdOf(LocalCallers.CALLER_A, id);
        assertThat(doneForA.path("resultLocation").asText()).isEqualTo(bucket + "results/" + stored + ".json");
        assertThat(doneForA.path("audioLocation").asText()).isEqualTo(bucket + "results/" + stored + ".wav");
        try (S3Client s3 = stack.aws().newS3Client()) {
            assertThat(s3.getObjectAsBytes(b -> b.bucket(stack.aws().bucket()).key("results/" + stored + ".json"))
                    .asUtf8String()).contains("\"status\":\"succeeded\"");
        }
    }

    @Test
    void eventsOfAsJob_shouldNameAnOwnerIdThatNoOneComputesFromAsIdentity() {
        // given: A's finished speech job
        String id = submitted(callerA, "\"task\":\"speech\",\"prompt\":\"Whose was this?\"");
        assertThat(callerA.awaitTerminal(id, JOB_LIMIT).path("status").asText()).isEqualTo("succeeded");
        String stored = storedIdOf(LocalCallers.CALLER_A, id);

        // when: its SNS event is published
        SnsStandIn.Published event = await("the SNS event of " + id).atMost(JOB_LIMIT).until(() -> stack.standIns()
                .sns().orElseThrow().published().stream().filter(p -> p.message().contains(stored)).findFirst(),
                Optional::isPresent).orElseThrow();

        // then: it names A by the keyed owner id, not by the digest of A's issuer and subject anyone can compute
        Owner computable = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt(LocalCallers.ISSUER, LocalCallers.CALLER_A));
        assertThat(event.attributes()).containsEntry("owner", ownerOf(LocalCallers.CALLER_A).value());
        assertThat(ownerOf(LocalCallers.CALLER_A)).isNotEqualTo(computable);
        assertThat(event.message()).doesNotContain(computable.hex()).doesNotContain(LocalCallers.CALLER_A)
                .doesNotContain(JobIds.stored(computable, id));
    }

    @Test
    void apiDescription_shouldBeServedToAnyone_whenTheApiRequiresATokenItself() {
        assertThat(anonymous.get("/v1/jobs/" + UUID.randomUUID()).status()).isEqualTo(401);

        HttpResponse<String> description = http(HttpRequest.newBuilder(URI.create(stack.apiUri()
                + ApiDescription.PATH)).GET());

        assertThat(description.statusCode()).isEqualTo(200);
        assertThat(description.headers().firstValue("content-type")).hasValue(ApiDescription.MEDIA_TYPE);
        assertThat(description.body()).isEqualTo(new String(ApiDescription.bytes(), StandardCharsets.UTF_8));
    }

    @Test
    void queuedJobOfA_shouldStayQueued_whenBTriesToCancelIt() {
        // given
        String id = UUID.randomUUID().toString();
        assertThat(callerA.submit("{\"requestId\":\"" + id + "\"," + STAYS_QUEUED + "}").status()).isEqualTo(202);

        // when
        ApiClient.Reply byB = callerB.cancel(id);

        // then
        assertThat(byB.status()).isEqualTo(404);
        assertThat(callerA.status(id).body().path("status").asText()).isEqualTo("queued");
        assertThat(callerA.cancel(id).status()).isEqualTo(202);
        assertThat(callerA.status(id).body().path("status").asText()).isEqualTo("cancelled");
    }

    @Test
    void batchOfA_shouldNotExistForB_whenBReadsCancelsOrReusesItsInput() {
        // given: A's batch of one line that stays queued (large tier, no worker)
        String input = upload(callerA, "{\"custom_id\":\"l1\",\"method\":\"POST\",\"url\":\"/v1/completions\","
                + "\"body\":{\"model\":\"large\",\"prompt\":\"Wait.\"}}\n");
        ApiClient.Reply created = callerA.post("/v1/batches", "{\"input_file_id\":\"" + input + "\","
                + "\"endpoint\":\"/v1/completions\",\"completion_window\":\"24h\"}");
        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
        String batch = created.body().path("id").asText();
        String unused = BatchIds.newBatchId(UUID.randomUUID());

        // when, then: B's reads and cancel answer as for a batch nobody created
        assertSameAnswer(callerB.get("/v1/batches/" + batch), callerB.get("/v1/batches/" + unused), batch, unused,
                404);
        assertSameAnswer(callerB.delete("/v1/batches/" + batch), callerB.delete("/v1/batches/" + unused), batch,
                unused, 404);
        // and A's uploaded input is no file of B's
        ApiClient.Reply reused = callerB.post("/v1/batches", "{\"input_file_id\":\"" + input + "\","
                + "\"endpoint\":\"/v1/completions\",\"completion_window\":\"24h\"}");
        assertThat(reused.status()).isEqualTo(400);
        assertThat(reused.body().path("errors").get(0).path("field").asText()).isEqualTo("input_file_id");
        // A still sees and cancels its batch
        assertThat(callerA.get("/v1/batches/" + batch).status()).isEqualTo(200);
        ApiClient.Reply cancelling = callerA.delete("/v1/batches/" + batch);
        assertThat(cancelling.status()).as(cancelling.body().toString()).isEqualTo(200);
    }

    @Test
    void requestsWithoutAValidToken_shouldGet401_neverReachingAJobOrA5xx() {
        // given: a job of A's, and tokens that API Gateway's JWT authorizer refuses
        String id = UUID.randomUUID().toString();
        assertThat(callerA.submit("{\"requestId\":\"" + id + "\"," + STAYS_QUEUED + "}").status()).isEqualTo(202);
        LocalCallers otherIssuer = LocalCallers.generate(true, Clock.systemUTC());
        Map<String, ApiClient> refused = Map.of(
                "no token", anonymous,
                "not a JWT", new ApiClient(stack.apiUri(), "Bearer not-a-jwt"),
                "signed by another key", anonymous.as(otherIssuer.token(LocalCallers.CALLER_A)),
                "expired", anonymous.as(stack.callers().token(LocalCallers.CALLER_A, Map.of("exp",
                        Date.from(Instant.now().minusSeconds(60))))),
                "another audience", anonymous.as(stack.callers().token(LocalCallers.CALLER_A, Map.of("aud",
                        "someone-else"))));

        refused.forEach((why, client) -> {
            // when
            List<ApiClient.Reply> replies = List.of(client.submit("{\"requestId\":\"" + id + "\",\"prompt\":\"x\"}"),
                    client.post("/infer", "{\"prompt\":\"x\"}"), client.status(id), client.cancel(id),
                    client.post("/v1/batches/uploads", ""), client.post("/v1/batches", "{}"),
                    client.get("/v1/batches/batch_x"), client.delete("/v1/batches/batch_x"));
            // then
            assertThat(replies).as(why).allSatisfy(reply -> {
                assertThat(reply.status()).isEqualTo(401);
                assertThat(reply.body().path("message").asText()).isEqualTo("Unauthorized");
            });
        });
        assertThat(callerA.status(id).body().path("status").asText()).isEqualTo("queued");
        assertThat(callerA.cancel(id).status()).isEqualTo(202);
    }

    @Test
    void router_shouldAnswer401_whenAnEventReachesItWithoutTheRequiredIdentity() throws IOException {
        // given: an API Gateway event without requestContext.authorizer (an API whose route lost its authorizer)
        String event = "{\"version\":\"2.0\",\"routeKey\":\"GET /v1/jobs/{id}\",\"rawPath\":\"/v1/jobs/"
                + UUID.randomUUID() + "\",\"rawQueryString\":\"\",\"headers\":{\"host\":\"localhost\"},"
                + "\"requestContext\":{\"accountId\":\"000000000000\",\"apiId\":\"local\",\"http\":{\"method\":"
                + "\"GET\",\"path\":\"/v1/jobs/x\",\"protocol\":\"HTTP/1.1\",\"sourceIp\":\"127.0.0.1\"},"
                + "\"requestId\":\"r\",\"routeKey\":\"GET /v1/jobs/{id}\",\"stage\":\"$default\",\"timeEpoch\":0},"
                + "\"isBase64Encoded\":false}";

        // when
        var invocation = stack.functions().router().invoke(event.getBytes(StandardCharsets.UTF_8));

        // then
        JsonNode response = JobJson.mapper().readTree(invocation.payload());
        assertThat(invocation.ok()).isTrue();
        assertThat(response.path("statusCode").asInt()).as(response.toString()).isEqualTo(401);
        assertThat(JobJson.mapper().readTree(response.path("body").asText()).path("errors").get(0).path("code")
                .asText()).isEqualTo("unauthenticated");
    }

    @Test
    void quota_shouldAdmitExactlyTheLimit_when32SubmittersOfOneCallerRace() throws Exception {
        // given
        ApiClient caller = newCaller().api();

        // when: 32 submissions at once of jobs that stay unfinished
        List<ApiClient.Reply> replies = all(IntStream.range(0, SUBMITTERS).mapToObj(i -> (Callable<ApiClient.Reply>)
                () -> caller.submit("{\"requestId\":\"" + UUID.randomUUID() + "\"," + STAYS_QUEUED + "}")).toList());

        // then
        assertThat(replies.stream().filter(r -> r.status() == 202)).hasSize(LIMIT);
        assertThat(replies.stream().filter(r -> r.status() != 202)).hasSize(SUBMITTERS - LIMIT).allSatisfy(r -> {
            assertThat(r.status()).as(r.body().toString()).isEqualTo(429);
            assertThat(r.headers().firstValue("retry-after")).hasValueSatisfying(v -> assertThat(Long.parseLong(v))
                    .isPositive());
            JsonNode error = r.body().path("errors").get(0);
            assertThat(error.path("code").asText()).isEqualTo("quota_exceeded");
            assertThat(error.path("message").asText()).contains("limit " + LIMIT + " unfinished jobs");
        });
        // and another caller is not limited by it
        assertThat(callerB.submit("{\"requestId\":\"" + UUID.randomUUID() + "\",\"task\":\"speech\","
                + "\"prompt\":\"Not limited.\"}").status()).isEqualTo(202);
    }

    @Test
    void quota_shouldGiveSlotsBack_whenJobsFailAreCancelledOrDeadLettered() {
        // given: a caller at its limit with queued jobs
        Caller owner = newCaller();
        ApiClient caller = owner.api();
        String cancelled = submitted(caller, STAYS_QUEUED);
        String deadLettered = submitted(caller, STAYS_QUEUED);
        submitted(caller, STAYS_QUEUED);
        submitted(caller, STAYS_QUEUED);
        assertThat(caller.submit("{\"requestId\":\"" + UUID.randomUUID() + "\"," + STAYS_QUEUED + "}").status())
                .isEqualTo(429);

        // when: one is cancelled, its slot taken by a job that fails (no text model), and one is dead-lettered
        assertThat(caller.cancel(cancelled).status()).isEqualTo(202);
        String failing = submitted(caller, "\"prompt\":\"Once upon a time\"");
        deadLetter(owner.subject(), deadLettered);
        assertThat(caller.awaitTerminal(failing, JOB_LIMIT).path("status").asText()).isEqualTo("failed");
        assertThat(caller.awaitTerminal(deadLettered, JOB_LIMIT).path("status").asText()).isEqualTo("failed");

        // then: two queued jobs still count; the failed and the dead-lettered one gave their slots back (releases
        // follow the results' S3 events: poll), so exactly two more are admitted
        for (int i = 0; i < 2; i++) {
            String id = UUID.randomUUID().toString();
            awaitStatus(() -> caller.submit("{\"requestId\":\"" + id + "\"," + STAYS_QUEUED + "}"), 202);
        }
        assertThat(caller.submit("{\"requestId\":\"" + UUID.randomUUID() + "\"," + STAYS_QUEUED + "}").status())
                .isEqualTo(429);
    }

    @Test
    void usage_shouldCountOnlyEachCallersOwnJobs_andEachJobOnce_whenAResultEventIsDeliveredAgain() throws IOException {
        // given: two callers of their own; A has two speech jobs that succeed and a text job that fails (no text
        // model here), B one speech job
        Caller a = newCaller();
        Caller b = newCaller();
        String spoken = submitted(a.api(), "\"task\":\"speech\",\"prompt\":\"A counts this.\"");
        submitted(a.api(), "\"task\":\"speech\",\"prompt\":\"And this.\"");
        String failing = submitted(a.api(), "\"prompt\":\"Once upon a time\"");
        submitted(b.api(), "\"task\":\"speech\",\"prompt\":\"B counts only this.\"");
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        String byTier = "/v1/usage?start=" + today + "&groupBy=tier";

        // when: every result is in and recorded (records follow the results' S3 events: poll)
        JsonNode usageOfA = awaitUsage(a.api(), byTier, 3);
        JsonNode usageOfB = awaitUsage(b.api(), byTier, 1);

        // then: each caller sees its own jobs only
        assertThat(usageOfA.at("/total/jobs/total").asLong()).as(usageOfA.toString()).isEqualTo(3);
        assertThat(usageOfB.at("/total/jobs/total").asLong()).as(usageOfB.toString()).isEqualTo(1);
        assertThat(a.api().status(failing).body().path("status").asText()).isEqualTo("failed");
        assertThat(usageOfA.path("groups").findValuesAsText("tier")).containsExactly("small", "speech");
        assertThat(usageOfA.at("/groups/0/jobs/failed").asLong()).as(usageOfA.toString()).isEqualTo(1);
        assertThat(usageOfA.at("/groups/1/jobs/succeeded").asLong()).isEqualTo(2);
        assertThat(usageOfA.at("/groups/1/inferenceSeconds").asDouble()).isPositive();
        assertThat(usageOfA.at("/groups/1/estimatedCostUsd").asDouble()).isPositive();
        assertThat(usageOfB.path("groups").findValuesAsText("tier")).containsExactly("speech");
        assertThat(usageOfB.at("/total/jobs/succeeded").asLong()).isEqualTo(1);

        // when: S3 delivers the event of A's first result once more (at least once), synchronously here
        String key = JobLayout.resultKey(storedIdOf(a.subject(), spoken));
        var again = stack.functions().notifier().orElseThrow().invoke(JobJson.write(AwsEvents.objectCreated(stack.aws().bucket(),
                key, 0, null, "0000000000000001", Instant.now())).getBytes(StandardCharsets.UTF_8));

        // then: it was handled, and counts nothing twice
        assertThat(again.ok()).as(new String(again.payload(), StandardCharsets.UTF_8)).isTrue();
        assertThat(a.api().get(byTier).body()).isEqualTo(usageOfA);
        assertThat(b.api().get(byTier).body()).isEqualTo(usageOfB);
        ApiClient.Reply refused = a.api().get("/v1/usage?start=" + today + "&groupBy=week");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().at("/errors/0/field").asText()).isEqualTo("groupBy");
    }

    /** Polls {@code caller}'s usage until it counts {@code jobs} jobs, and answers it. */
    private static JsonNode awaitUsage(ApiClient caller, String path, long jobs) {
        AtomicReference<JsonNode> last = new AtomicReference<>();
        await("usage of " + jobs + " jobs").atMost(JOB_LIMIT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(250)).until(() -> {
                    ApiClient.Reply reply = caller.get(path);
                    last.set(reply.body());
                    return reply.status() == 200 && reply.body().at("/total/jobs/total").asLong() >= jobs;
                });
        return last.get();
    }

    /** A caller of its own (a fresh subject), so quota cases never share a ledger. */
    private record Caller(String subject, ApiClient api) {
    }

    private Caller newCaller() {
        String subject = "quota-" + UUID.randomUUID();
        return new Caller(subject, anonymous.as(stack.callers().token(subject)));
    }

    private static String submitted(ApiClient caller, String fields) {
        String id = UUID.randomUUID().toString();
        ApiClient.Reply reply = caller.submit("{\"requestId\":\"" + id + "\"," + fields + "}");
        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(202);
        return id;
    }

    /** Where the job {@code subject} submitted as {@code clientId} is stored (S3 keys, queue messages). */
    private String storedIdOf(String subject, String clientId) {
        return JobIds.stored(ownerOf(subject), clientId);
    }

    /** The owner id of the local caller {@code subject}, as the stack's router derives it (keyed). */
    private Owner ownerOf(String subject) {
        return stack.aws().ownerIds().of(new CallerIdentity.Jwt(LocalCallers.ISSUER, subject));
    }

    /**
     * What SQS's redrive does after the last failed receive: the job's message leaves its tier queue for the DLQ
     * (other messages seen on the way are made visible again at once).
     */
    private void deadLetter(String subject, String clientId) {
        String stored = storedIdOf(subject, clientId);
        LocalAws aws = stack.aws();
        String large = aws.queueUrl(LocalAws.ESCALATION_QUEUE);
        try (SqsClient sqs = aws.newSqsClient()) {
            long deadline = System.nanoTime() + JOB_LIMIT.toNanos();
            while (System.nanoTime() < deadline) {
                for (Message m : sqs.receiveMessage(b -> b.queueUrl(large).maxNumberOfMessages(10)
                        .visibilityTimeout(30).messageAttributeNames("All")).messages()) {
                    if (m.body().contains(stored)) {
                        sqs.sendMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.DLQ)).messageBody(m.body())
                                .messageAttributes(m.messageAttributes()));
                        sqs.deleteMessage(b -> b.queueUrl(large).receiptHandle(m.receiptHandle()));
                        return;
                    }
                    sqs.changeMessageVisibility(b -> b.queueUrl(large).receiptHandle(m.receiptHandle())
                            .visibilityTimeout(0));
                }
            }
        }
        fail("the message of job " + stored + " never showed on the large queue");
    }

    /** Polls {@code call} until it answers {@code status} (an eventually consistent release). */
    private static ApiClient.Reply awaitStatus(Supplier<ApiClient.Reply> call, int status) {
        AtomicReference<ApiClient.Reply> last = new AtomicReference<>();
        await("an answer " + status).atMost(RELEASE_LIMIT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    last.set(call.get());
                    return last.get().status() == status;
                });
        return last.get();
    }

    /** Both replies, with each one's own id masked, are the same: the first id does not exist for this caller. */
    private static void assertSameAnswer(ApiClient.Reply reply, ApiClient.Reply forUnused, String id, String unused,
                                         int status) {
        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(status);
        assertThat(reply.status()).isEqualTo(forUnused.status());
        assertThat(reply.body().toString().replace(id, "<id>")).isEqualTo(forUnused.body().toString()
                .replace(unused, "<id>"));
    }

    private String upload(ApiClient caller, String content) {
        JsonNode upload = caller.post("/v1/batches/uploads", "{\"bytes\":"
                + content.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + "}").body();
        assertThat(put(upload.path("upload_url").asText(), content)).isEqualTo(200);
        return upload.path("input_file_id").asText();
    }

    private static int put(String url, String content) {
        return http(HttpRequest.newBuilder(URI.create(url)).PUT(HttpRequest.BodyPublishers.ofString(content)))
                .statusCode();
    }

    private static String get(String url) {
        return http(HttpRequest.newBuilder(URI.create(url)).GET()).body();
    }

    private static HttpResponse<String> http(HttpRequest.Builder request) {
        try {
            return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Runs every call at once (released together) and returns their answers in order. */
    private <T> List<T> all(List<Callable<T>> calls) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<T>> futures = calls.stream().map(call -> pool.submit(() -> {
            go.await();
            return call.call();
        })).toList();
        go.countDown();
        List<T> answers = new ArrayList<>();
        for (Future<T> future : futures) {
            answers.add(future.get());
        }
        return answers;
    }
}
