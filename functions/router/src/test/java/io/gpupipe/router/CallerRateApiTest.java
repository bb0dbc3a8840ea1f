package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobJson;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The per-caller request rate over API Gateway's events (two IAM callers): caller A polls a job's status at ten
 * times its rate and more, caller B sends a few requests meanwhile; only A is answered 429. The rate is one request
 * every 20 s, so that even a loaded machine polls at ten times it.
 */
@QuarkusTest
@TestProfile(CallerRateApiTest.OneRequestEveryTwentySeconds.class)
@WithTestResource(LocalAwsTestResource.class)
class CallerRateApiTest extends LocalAwsProbeSetup {
    private static final double RATE = 0.05;
    private static final int BURST = 2;
    private static final int POLLS_OF_A = 30;

    /** {@code GPUPIPE_ROUTER_RATE_REQUESTS_PER_SECOND=0.05}, {@code GPUPIPE_ROUTER_RATE_BURST=2}. */
    public static class OneRequestEveryTwentySeconds implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpupipe.router.rate.requests-per-second", Double.toString(RATE),
                    "gpupipe.router.rate.burst", Integer.toString(BURST));
        }
    }

    @Test
    void callerPollingAtTenTimesTheRate_shouldGet429_whileAnotherCallerNeverDoes() throws IOException {
        // given: a status poll for each caller (the job need not exist: a 404 is an answer like any other)
        ObjectNode pollOfA = asIam(status(UUID.randomUUID().toString()), "caller-a");
        ObjectNode pollOfB = asIam(status(UUID.randomUUID().toString()), "caller-b");
        List<JsonNode> answersToA = new ArrayList<>();
        List<JsonNode> answersToB = new ArrayList<>();

        invoke(asIam(status(UUID.randomUUID().toString()), "caller-warming-up")); // first request's start-up

        // when: A polls back to back, and B sends a request after A's 10th and 20th
        long start = System.nanoTime();
        for (int poll = 1; poll <= POLLS_OF_A; poll++) {
            answersToA.add(invoke(pollOfA));
            if (poll % 10 == 0 && poll < POLLS_OF_A) {
                answersToB.add(invoke(pollOfB));
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;

        // then: A polled at ten times its rate or more, and got no more than its burst plus the rate
        assertThat(answersToA.size() / seconds).as("A's requests per second").isGreaterThanOrEqualTo(10.0 * RATE);
        List<JsonNode> refused = answersToA.stream().filter(a -> a.path("statusCode").asInt() == 429).toList();
        assertThat(answersToA.size() - refused.size()).isLessThanOrEqualTo(BURST + (int) Math.ceil(seconds * RATE));
        JsonNode first = refused.get(0);
        assertThat(first.path("headers").path("Retry-After").asInt()).isBetween(1, 20); // a token every 20 s
        JsonNode error = bodyOf(first);
        assertThat(error.path("errors").get(0).path("field").asText()).isEqualTo("owner");
        assertThat(error.path("errors").get(0).path("code").asText()).isEqualTo("rate_limited");
        assertThat(error.path("retryable").asBoolean()).isTrue();
        // and B never met a 429
        assertThat(answersToB).hasSize(2)
                .allSatisfy(answer -> assertThat(answer.path("statusCode").asInt()).isEqualTo(404));
    }

    private static ObjectNode status(String id) throws IOException {
        ObjectNode event = (ObjectNode) JobJson.mapper().readTree(Files.readString(Path.of("events", "get-job.json")));
        event.put("rawPath", "/v1/jobs/" + id);
        ((ObjectNode) event.path("requestContext").path("http")).put("path", "/v1/jobs/" + id);
        ((ObjectNode) event.path("pathParameters")).put("id", id);
        return event;
    }

    /** What API Gateway's IAM authorizer puts into the event of a request signed by a session of {@code role}. */
    private static ObjectNode asIam(ObjectNode event, String role) {
        ObjectNode iam = ((ObjectNode) event.path("requestContext")).putObject("authorizer").putObject("iam");
        iam.put("accessKey", "ASIAEXAMPLEKEY");
        iam.put("accountId", "123456789012");
        iam.put("callerId", "AROAEXAMPLEROLEID:session");
        iam.putNull("cognitoIdentity");
        iam.putNull("principalOrgId");
        iam.put("userArn", "arn:aws:sts::123456789012:assumed-role/" + role + "/session");
        iam.put("userId", "AROAEXAMPLEROLEID:session");
        return event;
    }

    private static JsonNode bodyOf(JsonNode response) throws IOException {
        return JobJson.mapper().readTree(response.path("body").asText());
    }

    private static JsonNode invoke(JsonNode event) throws IOException {
        String response = given().contentType("application/json").body(event.toString()).post("/_lambda_")
                .then().statusCode(200).extract().asString();
        return JobJson.mapper().readTree(response);
    }
}
