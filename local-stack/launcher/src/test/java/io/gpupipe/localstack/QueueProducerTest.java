package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A queue producer cannot impersonate an API caller, through the whole local stack (JWT callers, the real router,
 * notifier and dead-letter packages, a small-text and a speech worker; the small worker has the TinyStories model
 * where ../shared has it, else it fails text jobs at once). Here the producer allowed {@code sqs:SendMessage} knows
 * everything the planted message names (caller A's owner id, keyed as it is, say from an SNS event; the stored id of
 * a client id A will use); only the router's seal lets a message name an owner, so the planted job is the queue
 * owner's, under an id of that owner's, and A's own request of that id is a new job of A's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueueProducerTest {
    private static final Path TEXT_MODEL = TestPaths.repo().resolve("../shared/models/stories260K.gguf");
    private static final Duration JOB_LIMIT = Duration.ofSeconds(90);
    /** A long prompt: the planted job's speech lasts far longer than A's own, its text has more prompt tokens. */
    private static final String PLANTED_PROMPT = "This planted prompt was written by a queue producer, not by caller A,"
            + " and it must never be read back as the answer to any request that caller A makes of the API.";

    private LocalStack stack;
    /** Caller A's owner id, as the stack's router derives it. */
    private Owner ownerA;
    private ApiClient callerA;
    private S3Client s3;
    private SqsClient sqs;

    @BeforeAll
    void start() throws IOException {
        RequiredPackages.assertBuilt();
        Path cache = Files.createTempDirectory("gpupipe-producers-");
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), cache).withFreePorts()
                .withWorkers(Set.of(Tier.of("small"), Tier.of("speech"))).withConsole(false).withRequireToken(true)
                .withTextModel(Files.isRegularFile(TEXT_MODEL) ? TEXT_MODEL : null);
        stack = StackAssembler.start(options, new Console(System.out));
        callerA = new ApiClient(stack.apiUri()).as(stack.callers().token(LocalCallers.CALLER_A));
        ownerA = stack.aws().ownerIds().of(new CallerIdentity.Jwt(LocalCallers.ISSUER, LocalCallers.CALLER_A));
        s3 = stack.aws().newS3Client();
        sqs = stack.aws().newSqsClient();
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
    void plantedSpeechMessage_shouldNotBeAsJob_andAsRequestOfThatIdShouldRunAsOwn() {
        // given: the planted message, on the speech queue, for a client id A has not used yet
        String id = UUID.randomUUID().toString();
        plant(Tier.of("speech"), id, "\"task\":\"speech\"");

        // when, then: A does not see it, and A's own request of that id runs as a new job of A's
        assertThat(callerA.status(id).status()).as("A's GET of the planted id").isEqualTo(404);
        JsonNode own = submitAsA(id, "{\"requestId\":\"" + id + "\",\"task\":\"speech\",\"prompt\":\"Mine.\"}");
        assertThat(own.path("status").asText()).as(own.toString()).isEqualTo("succeeded");
        long plantedMs = plantedResult(id).result().durationMs();
        assertThat(own.path("result").path("result").path("durationMs").asLong())
                .as("A's short prompt was spoken, not the planted one (%d ms)", plantedMs).isLessThan(plantedMs / 2);
    }

    @Test
    void plantedTextMessage_shouldNotBeAsJob_andAsRequestOfThatIdShouldRunAsOwn() {
        // given
        String id = UUID.randomUUID().toString();
        plant(Tier.of("small"), id, "\"route\":\"small\"");

        // when, then
        assertThat(callerA.status(id).status()).as("A's GET of the planted id").isEqualTo(404);
        JsonNode own = submitAsA(id, "{\"requestId\":\"" + id + "\",\"prompt\":\"Lily\",\"route\":\"small\","
                + "\"maxTokens\":4}");
        assertThat(own.path("requestId").asText()).isEqualTo(id);
        if (Files.isRegularFile(TEXT_MODEL)) {
            assertThat(own.path("status").asText()).as(own.toString()).isEqualTo("succeeded");
            assertThat(own.path("result").path("result").path("usage").path("promptTokens").asInt())
                    .as("A's prompt ran, not the planted one").isLessThan(plantedResult(id).result().usage()
                            .promptTokens());
        }
    }

    @Test
    void messageNamingAsStoredId_shouldChangeNothingOfAsJob_queuedOrFinished() {
        // given: A's job queued on large (no worker runs it here) and A's finished speech job
        String queued = UUID.randomUUID().toString();
        String finished = UUID.randomUUID().toString();
        assertThat(callerA.submit("{\"requestId\":\"" + queued + "\",\"prompt\":\"Wait.\",\"route\":\"large\"}")
                .status()).isEqualTo(202);
        assertThat(callerA.submit("{\"requestId\":\"" + finished + "\",\"task\":\"speech\",\"prompt\":\"Done.\"}")
                .status()).isEqualTo(202);
        assertThat(callerA.awaitTerminal(finished, JOB_LIMIT).path("status").asText()).isEqualTo("succeeded");
        String queuedMarker = object(JobLayout.markerKey(storedIdOfA(queued))).orElseThrow();
        String finishedResult = object(JobLayout.resultKey(storedIdOfA(finished))).orElseThrow();

        // when: messages naming A's stored ids with other bodies, on queues whose workers run
        plant(Tier.of("small"), queued, "\"route\":\"small\"");
        plant(Tier.of("speech"), finished, "\"task\":\"speech\"");
        awaitDrained(Tier.of("small"));
        awaitDrained(Tier.of("speech"));

        // then: A's jobs are exactly as they were
        assertThat(object(JobLayout.markerKey(storedIdOfA(queued)))).contains(queuedMarker);
        assertThat(object(JobLayout.resultKey(storedIdOfA(queued)))).isEmpty();
        assertThat(callerA.status(queued).body().path("status").asText()).isEqualTo("queued");
        assertThat(object(JobLayout.resultKey(storedIdOfA(finished)))).contains(finishedResult);
    }

    /**
     * Sends the issue's planted message to {@code tier}'s queue (A's owner, A's client id {@code clientId} and the
     * stored id derived from both, {@code fields} and the planted prompt) and waits until a worker has taken it.
     */
    private void plant(Tier tier, String clientId, String fields) {
        String body = "{\"requestId\":\"" + storedIdOfA(clientId) + "\",\"owner\":\"" + ownerA.value()
                + "\",\"clientRequestId\":\"" + clientId + "\"," + fields + ",\"prompt\":\"" + PLANTED_PROMPT + "\"}";
        sqs.sendMessage(b -> b.queueUrl(stack.aws().queueUrl(tier)).messageBody(body));
        awaitDrained(tier);
    }

    private JsonNode submitAsA(String id, String json) {
        ApiClient.Reply submitted = callerA.submit(json);
        assertThat(submitted.status()).as("A's POST of the planted id: %s", submitted.body()).isEqualTo(202);
        return callerA.awaitTerminal(id, JOB_LIMIT);
    }

    /** The planted job's result: the queue owner's, under the id derived from it and the requestId the body named. */
    private JobResult plantedResult(String clientId) {
        String key = JobLayout.resultKey(JobIds.stored(Owner.QUEUE, storedIdOfA(clientId)));
        String json = await(key).atMost(JOB_LIMIT).until(() -> object(key), Optional::isPresent).orElseThrow();
        JobResult result = JobJson.read(json, JobResult.class);
        assertThat(result.owner()).isEqualTo(Owner.QUEUE.value());
        return result;
    }

    /** Waits until no message of {@code tier}'s queue is waiting or being worked on. */
    private void awaitDrained(Tier tier) {
        String url = stack.aws().queueUrl(tier);
        await("the " + tier.wireName() + " queue drained").atMost(JOB_LIMIT).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    var attributes = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
                    return attributes.values().stream().mapToInt(Integer::parseInt).sum() == 0;
                });
    }

    private Optional<String> object(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(LocalAws.BUCKET).key(key)).asUtf8String());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    private String storedIdOfA(String clientId) {
        return JobIds.stored(ownerA, clientId);
    }
}
