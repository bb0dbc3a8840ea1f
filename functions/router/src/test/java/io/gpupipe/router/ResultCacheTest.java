package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The router's result cache over the real S3 and SQS wire protocols: a cacheable job whose entry exists is answered
 * with its own cached result and no queue message; anything else goes to its queue. The test profile configures the
 * model versions of small and speech, not large.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class ResultCacheTest extends LocalAwsProbeSetup {
    private static final JobRequestParser PARSER = new JobRequestParser();

    @ConfigProperty(name = "gpupipe.router.model-versions.small")
    String smallVersion;

    @ConfigProperty(name = "gpupipe.router.model-versions.speech")
    String speechVersion;

    @Test
    void submit_shouldAnswerFromTheCacheWithoutAnyQueueMessage_whenADeterministicJobHasAnEntry() {
        // given: an entry a worker wrote for this prompt under the small tier's model version
        String prompt = "Cache me " + UUID.randomUUID();
        String body = "{\"prompt\":\"" + prompt + "\",\"maxTokens\":32,\"temperature\":0,\"cache\":true";
        String source = storeTextEntry(smallVersion, body + "}", "Once upon a time");
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();

        // when: two other requests with the same output-affecting fields (one with a callback)
        JsonPath hit = submit(first, body + "}", 200);
        JsonPath again = submit(second, body + ",\"callbackUrl\":\"https://hooks.example.com/x\",\"priority\":3}",
                200);

        // then: each is answered with its own stored result, marked cached, and nothing reached a queue
        assertThat(probe.drainTierQueues()).isEmpty();
        for (String[] answer : new String[][] {{first, hit.prettify()}, {second, again.prettify()}}) {
            JsonPath json = JsonPath.from(answer[1]);
            assertThat(json.getString("status")).isEqualTo("succeeded");
            assertThat(json.getString("tier")).isEqualTo("small");
            assertThat(json.getBoolean("result.cached")).isTrue();
            assertThat(json.getString("result.cachedFrom")).isEqualTo(source);
            assertThat(json.getString("result.result.text")).isEqualTo("Once upon a time");
            assertThat(json.getString("resultUrl")).contains(JobLayout.resultKey(probe.stored(answer[0])));
            JobResult stored = storedResult(answer[0]);
            assertThat(stored.isCached()).isTrue();
            assertThat(stored.cachedFrom()).isEqualTo(source);
            assertThat(stored.modelVersion()).isEqualTo(smallVersion);
        }
        assertThat(storedResult(second).callbackUrl()).isEqualTo("https://hooks.example.com/x");
        assertThat(probe.marker(probe.stored(first)).orElseThrow().status()).isEqualTo(JobStatus.QUEUED);
    }

    @Test
    void resubmission_shouldKeepTheFirstAnswerAndSendNothing_whenAHitIsSubmittedAgain() {
        // given
        String body = "{\"prompt\":\"Twice " + UUID.randomUUID() + "\",\"temperature\":0,\"cache\":true}";
        storeTextEntry(smallVersion, body, "first answer");
        String id = UUID.randomUUID().toString();
        submit(id, body, 200);
        String stored = probe.object(JobLayout.resultKey(probe.stored(id))).orElseThrow();
        // when: the same requestId again (the result is create-only and the marker exists)
        JsonPath again = submit(id, body, 200);
        // then
        assertThat(again.getBoolean("result.cached")).isTrue();
        assertThat(probe.object(JobLayout.resultKey(probe.stored(id)))).contains(stored);
        assertThat(probe.drainTierQueues()).isEmpty();
    }

    @Test
    void submit_shouldEnqueueAsUsual_whenTheCacheHasNoEntry() {
        // given
        String id = UUID.randomUUID().toString();
        // when
        JsonPath answer = submit(id, "{\"prompt\":\"Never cached " + id + "\",\"temperature\":0,\"cache\":true}",
                202);
        // then
        assertThat(answer.getString("status")).isEqualTo("queued");
        assertThat(probe.drainTierQueues()).extracting(m -> LocalAwsProbe.job(m).visibleRequestId()).containsOnly(id);
        assertThat(probe.object(JobLayout.resultKey(probe.stored(id)))).isEmpty();
    }

    @Test
    void submit_shouldEnqueue_whenTheJobDoesNotAskForTheCache_andItsTierDoesNotDefaultToIt() {
        // given: an entry exists, but the request says nothing about the cache (tiers.json: cacheByDefault false)
        String body = "{\"prompt\":\"Not asked " + UUID.randomUUID() + "\",\"temperature\":0}";
        storeTextEntry(smallVersion, body, "cached text");
        String id = UUID.randomUUID().toString();
        // when, then
        submit(id, body, 202);
        assertThat(probe.drainTierQueues()).isNotEmpty();
    }

    @Test
    void submit_shouldEnqueue_whenTheTiersModelVersionIsUnknown() {
        // given: an entry under some version for a job routed to large, which has no configured version
        String body = "{\"prompt\":\"Large " + UUID.randomUUID() + "\",\"route\":\"large\",\"temperature\":0,"
                + "\"cache\":true}";
        storeTextEntry(smallVersion, body, "cached text");
        String id = UUID.randomUUID().toString();
        // when
        JsonPath answer = submit(id, body, 202);
        // then
        assertThat(answer.getString("tier")).isEqualTo("large");
        assertThat(probe.drainTierQueues()).extracting(m -> LocalAwsProbe.job(m).visibleRequestId()).containsOnly(id);
    }

    @Test
    void submit_shouldEnqueue_whenTheEntryWasWrittenForAnotherModelVersion() {
        // given
        String body = "{\"prompt\":\"Old model " + UUID.randomUUID() + "\",\"temperature\":0,\"cache\":true}";
        storeTextEntry(smallVersion + "-previous", body, "an older model's answer");
        // when, then
        submit(UUID.randomUUID().toString(), body, 202);
        assertThat(probe.drainTierQueues()).isNotEmpty();
    }

    @Test
    void submit_shouldBe400NamingCacheAndWhy_whenANonDeterministicJobAsksForTheCache() {
        // given
        String id = UUID.randomUUID().toString();
        // when
        JsonPath answer = submit(id, "{\"prompt\":\"Creative\",\"temperature\":0.8,\"cache\":true}", 400);
        // then
        assertThat(answer.getString("errors[0].field")).isEqualTo("cache");
        assertThat(answer.getString("errors[0].code")).isEqualTo(ErrorCodes.NOT_CACHEABLE);
        assertThat(answer.getString("errors[0].message")).contains("temperature 0 or an explicit seed")
                .contains("temperature 0.8 and no seed");
        assertThat(answer.getList("errors")).hasSize(1);
        assertThat(probe.drainTierQueues()).isEmpty();
        assertThat(probe.marker(probe.stored(id))).isEmpty();
    }

    @Test
    void speechHit_shouldGetItsOwnCopyOfTheCachedAudio_andALinkToIt() {
        // given: a speech entry and the cache's own audio object
        String body = "{\"task\":\"speech\",\"prompt\":\"Say it once " + UUID.randomUUID() + "\",\"voice\":\"ryan\","
                + "\"cache\":true}";
        InferenceJob sourceJob = parse(body);
        CacheKey key = CacheKey.of(speechVersion, sourceJob);
        String source = sourceJob.requestId();
        byte[] wav = "RIFF-not-really-a-wav".getBytes(StandardCharsets.US_ASCII);
        String cachedAudio = key.audioObjectKey(source);
        probe.put(cachedAudio, wav);
        probe.put(key.entryObjectKey(), JobJson.write(new CacheEntry(key.hex(), source, Task.SPEECH,
                "freetts-kevin16", speechVersion, JobResult.Output.audio(cachedAudio, "wav", 16_000, 900),
                Instant.now(), sourceJob.clientRequestId())));
        String id = UUID.randomUUID().toString();
        // when
        JsonPath answer = submit(id, body, 200);
        // then
        assertThat(answer.getString("result.result.audioKey")).isEqualTo(JobLayout.audioKey(probe.stored(id)));
        assertThat(answer.getString("audioUrl")).contains(JobLayout.audioKey(probe.stored(id)));
        assertThat(probe.s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(JobLayout.audioKey(probe.stored(id))))
                .asByteArray()).isEqualTo(wav);
        assertThat(probe.drainTierQueues()).isEmpty();
    }

    @Test
    void speechEntryWithoutItsAudio_shouldBeAMiss() {
        // given: the entry outlived its audio (the lifecycle rule may expire the two a day apart)
        String body = "{\"task\":\"speech\",\"prompt\":\"Gone " + UUID.randomUUID() + "\",\"cache\":true}";
        InferenceJob sourceJob = parse(body);
        CacheKey key = CacheKey.of(speechVersion, sourceJob);
        probe.put(key.entryObjectKey(), JobJson.write(new CacheEntry(key.hex(), sourceJob.requestId(),
                Task.SPEECH, "freetts-kevin16", speechVersion,
                JobResult.Output.audio(key.audioObjectKey(sourceJob.requestId()), "wav", 16_000, 900), Instant.now(),
                sourceJob.clientRequestId())));
        String id = UUID.randomUUID().toString();
        // when, then
        submit(id, body, 202);
        assertThat(probe.drainTierQueues()).extracting(m -> LocalAwsProbe.job(m).visibleRequestId()).containsOnly(id);
        assertThat(probe.object(JobLayout.resultKey(probe.stored(id)))).isEmpty();
    }

    private JsonPath submit(String id, String body, int status) {
        String withId = "{\"requestId\":\"" + id + "\"," + body.substring(1);
        return given().contentType("application/json").body(withId).post("/v1/jobs")
                .then().statusCode(status).extract().jsonPath();
    }

    /** Stores the entry a worker would have written for {@code body} run by {@code version}; its source id. */
    private String storeTextEntry(String version, String body, String text) {
        InferenceJob job = parse(body);
        CacheKey key = CacheKey.of(version, job);
        probe.put(key.entryObjectKey(), JobJson.write(new CacheEntry(key.hex(), job.requestId(),
                Task.GENERATE, "stand-in/tiny-llm", version, JobResult.Output.text(text, JobResult.Usage.of(3, 4),
                "stop"), Instant.now(), job.clientRequestId())));
        return job.visibleRequestId();
    }

    /** The job as the router stores it for the mock event server's (anonymous) caller: the cache is per owner. */
    private InferenceJob parse(String body) {
        return ((JobRequestParser.Outcome.Valid) PARSER.parse(body, JobRequestParser.Source.API)).job()
                .submittedBy(aws.ownerIds().of(CallerIdentity.ANONYMOUS));
    }

    private JobResult storedResult(String id) {
        return JobJson.read(probe.object(JobLayout.resultKey(probe.stored(id))).orElseThrow(), JobResult.class);
    }

}
