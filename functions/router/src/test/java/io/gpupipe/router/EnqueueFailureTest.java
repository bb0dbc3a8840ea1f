package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.job.JobLayout;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The large tier points at a queue that does not exist: SQS (ElasticMQ) refuses every message sent to it with a
 * client error (QueueDoesNotExist, 400). That is a misconfiguration, not an outage: 500, not retryable, and the
 * marker taken back. (An outage, 503 retryable, is JobServiceTest's unreachable SQS endpoint.)
 */
@QuarkusTest
@TestProfile(EnqueueFailureTest.MissingLargeQueue.class)
@WithTestResource(LocalAwsTestResource.class)
class EnqueueFailureTest extends LocalAwsProbeSetup {
    /** Overrides the large queue URL with one naming a queue that was never created. */
    public static class MissingLargeQueue implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpupipe.router.queue-urls.large", "${local-aws.queue-url.large}-does-not-exist");
        }
    }

    @Test
    void submit_shouldAnswer500NotRetryableAndLeaveNoMarker_whenSqsRefusesTheMessage() {
        // given
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Long essay please\",\"maxTokens\":2048}";

        // when
        given().contentType("application/json").body(body).post("/v1/jobs")
                .then().statusCode(500).contentType("application/json")
                .body("retryable", equalTo(false))
                .body("errors[0].field", equalTo("service"))
                .body("errors[0].code", equalTo(ApiErrorCodes.INTERNAL_ERROR));

        // then: no marker lies about the job, nothing was enqueued, and the job is unknown
        assertThat(probe.object(JobLayout.markerKey(probe.stored(id)))).isEmpty();
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
        given().get("/v1/jobs/" + id).then().statusCode(404);
    }

    @Test
    void submit_shouldFailAgainRatherThanClaimQueued_whenClientRetriesTheSameRequestId() {
        // given
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Long essay please\",\"route\":\"large\"}";
        given().contentType("application/json").body(body).post("/infer").then().statusCode(500);

        // when, then
        given().contentType("application/json").body(body).post("/infer").then().statusCode(500);
        assertThat(probe.object(JobLayout.markerKey(probe.stored(id)))).isEmpty();
    }

    @Test
    void submit_shouldStillAccept_whenJobGoesToTheHealthyTier() {
        // given
        String id = UUID.randomUUID().toString();

        // when
        given().contentType("application/json").body("{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}")
                .post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo("small"));

        // then
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
        assertThat(probe.marker(probe.stored(id))).isPresent();
    }
}
