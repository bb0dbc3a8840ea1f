package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobKey;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class JobStatusTest extends LocalAwsProbeSetup {
    @Test
    void status_shouldAnswerQueued_whenJobWasJustSubmitted() {
        // given
        String id = submit("{\"prompt\":\"Hello\",\"maxTokens\":2000}");

        // when, then
        given().get("/v1/jobs/" + id)
                .then().statusCode(200).contentType("application/json")
                .body("requestId", equalTo(id)).body("status", equalTo("queued")).body("tier", equalTo("large"))
                .body("task", equalTo("generate")).body("submittedAt", notNullValue())
                .body("result", nullValue()).body("resultUrl", nullValue()).body("resultLocation", nullValue())
                .body("statusUrl", matchesPattern("^http://localhost:\\d+/v1/jobs/" + id + "$"));
    }

    @Test
    void status_shouldIncludeResultAndWorkingPresignedUrl_whenJobSucceeded() throws Exception {
        // given
        String id = submit("{\"prompt\":\"What is Amazon ECS?\"}");
        InferenceJob job = LocalAwsProbe.job(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE).stream()
                .filter(m -> m.body().contains(id)).findFirst().orElseThrow());
        JobResult result = JobResult.succeeded(job, JobResult.Output.text("Amazon ECS is a container service.",
                JobResult.Usage.of(17, 8), "stop"), new JobResult.Provenance(Tier.of("small"), "mistral-7b", "v0.2",
                "arn:aws:ecs:us-east-1:123456789012:task/c/t", 1, 40L, 4956L), Instant.now());
        String stored = JobJson.write(result);
        probe.put(JobLayout.resultKey(probe.stored(id)), stored);

        // when
        JsonPath body = given().get("/v1/jobs/" + id)
                .then().statusCode(200)
                .body("status", equalTo("succeeded")).body("tier", equalTo("small"))
                .body("result.status", equalTo("succeeded"))
                .body("result.result.text", equalTo("Amazon ECS is a container service."))
                .body("result.result.usage.totalTokens", equalTo(25))
                .body("result.processingTimeMs", equalTo(4956))
                .body("audioUrl", nullValue()).body("audioLocation", nullValue())
                .body("linksExpireAt", notNullValue())
                .extract().jsonPath();

        // then the presigned URL, signed for the local S3 endpoint, serves exactly the stored result
        String url = body.getString("resultUrl");
        assertThat(url).startsWith(aws.s3Endpoint().toString()).contains("X-Amz-Signature=");
        HttpResponse<String> fetched = fetch(url);
        assertThat(fetched.statusCode()).isEqualTo(200);
        assertThat(fetched.body()).isEqualTo(stored);
        // and the S3 URI names the same object in the bucket, under the stored id (not the client's requestId)
        assertThat(body.getString("resultLocation")).isEqualTo("s3://" + aws.bucket() + "/"
                + JobLayout.resultKey(probe.stored(id))).doesNotContain(id);
        assertThat(probe.object(objectKey(body.getString("resultLocation")))).contains(stored);
    }

    @Test
    void status_shouldIncludeAudioUrl_whenSpeechJobSucceeded() throws Exception {
        // given
        String id = submit("{\"task\":\"speech\",\"prompt\":\"Hello there\"}");
        InferenceJob job = JobJson.read("{\"requestId\":\"" + id + "\",\"task\":\"speech\",\"prompt\":\"Hello\"}",
                InferenceJob.class)
                .withKey(JobKey.submitted(aws.ownerIds().of(CallerIdentity.ANONYMOUS), id));
        byte[] wav = {'R', 'I', 'F', 'F', 1, 2, 3, 4};
        probe.put(JobLayout.audioKey(probe.stored(id)), wav);
        probe.put(JobLayout.resultKey(probe.stored(id)), JobJson.write(JobResult.succeeded(job,
                JobResult.Output.audio(JobLayout.audioKey(probe.stored(id)), "wav", 16000, 900),
                new JobResult.Provenance(Tier.of("small"), "freetts", "1.2.2", null, 1, 5L, 20L), Instant.now())));

        // when
        String audioUrl = given().get("/v1/jobs/" + id)
                .then().statusCode(200).body("status", equalTo("succeeded"))
                .body("result.result.audioKey", equalTo(JobLayout.audioKey(probe.stored(id))))
                .body("resultUrl", notNullValue())
                .body("resultLocation", equalTo("s3://" + aws.bucket() + "/"
                        + JobLayout.resultKey(probe.stored(id))))
                .body("audioLocation", equalTo("s3://" + aws.bucket() + "/"
                        + JobLayout.audioKey(probe.stored(id))))
                .extract().path("audioUrl");

        // then
        HttpResponse<byte[]> fetched = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(audioUrl))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(fetched.statusCode()).isEqualTo(200);
        assertThat(fetched.body()).isEqualTo(wav);
    }

    @Test
    void status_shouldShowFailureWithoutAudioUrl_whenJobFailed() {
        // given
        String id = submit("{\"task\":\"speech\",\"prompt\":\"Hello\"}");
        InferenceJob job = JobJson.read("{\"requestId\":\"" + id + "\",\"task\":\"speech\",\"prompt\":\"Hello\"}",
                InferenceJob.class)
                .withKey(JobKey.submitted(aws.ownerIds().of(CallerIdentity.ANONYMOUS), id));
        probe.put(JobLayout.resultKey(probe.stored(id)), JobJson.write(JobResult.failed(job,
                JobResult.JobError.of(ErrorCodes.EXPIRED, "not started within ttlSeconds"), null, Instant.now())));

        // when, then
        given().get("/v1/jobs/" + id)
                .then().statusCode(200).body("status", equalTo("failed"))
                .body("result.error.code", equalTo(ErrorCodes.EXPIRED))
                .body("resultUrl", notNullValue()).body("audioUrl", nullValue())
                .body("resultLocation", equalTo("s3://" + aws.bucket() + "/"
                        + JobLayout.resultKey(probe.stored(id))))
                .body("audioLocation", nullValue());
    }

    @Test
    void status_shouldFindJob_whenIdGivenInUpperCase() {
        String id = submit("{\"prompt\":\"Hello\"}");
        given().get("/v1/jobs/" + id.toUpperCase())
                .then().statusCode(200).body("requestId", equalTo(id)).body("status", equalTo("queued"));
    }

    @Test
    void status_shouldAnswer404_whenJobUnknown() {
        String id = UUID.randomUUID().toString();
        given().get("/v1/jobs/" + id)
                .then().statusCode(404).contentType("application/json")
                .body("errors[0].field", equalTo("requestId"))
                .body("errors[0].code", equalTo(ApiErrorCodes.NOT_FOUND));
    }

    @Test
    void status_shouldAnswer400_whenIdIsMalformed() {
        given().get("/v1/jobs/6ba7b810-9dad-11d1-80b4-00c04fd430c8")
                .then().statusCode(400).contentType("application/json")
                .body("errors[0].field", equalTo("requestId"))
                .body("errors[0].code", equalTo(ErrorCodes.INVALID_FORMAT));
    }

    private static String submit(String body) {
        return given().contentType("application/json").body(body).post("/v1/jobs")
                .then().statusCode(202).extract().path("requestId");
    }

    /** The key of an {@code s3://bucket/key} URI of the local bucket. */
    private String objectKey(String location) {
        String prefix = "s3://" + aws.bucket() + "/";
        assertThat(location).startsWith(prefix);
        return location.substring(prefix.length());
    }

    private static HttpResponse<String> fetch(String url) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
