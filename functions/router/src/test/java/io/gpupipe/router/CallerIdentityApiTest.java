package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Callers as API Gateway's authorizers name them in the payload 2.0 event ({@code requestContext.authorizer}), sent
 * as raw events to the mock event server so that every answer passes the API description's judge: every session of
 * an assumed role is one caller (the default {@code IamCallerScope=role}), another role is another caller, and a
 * JWT that names neither a subject nor a tenant is refused, never taken for the anonymous caller.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class CallerIdentityApiTest extends LocalAwsProbeSetup {
    private static final String ROLE_ARN = "arn:aws:sts::123456789012:assumed-role/inference-client/";
    private static final String OTHER_ROLE_ARN = "arn:aws:sts::123456789012:assumed-role/batch-client/";
    private static final String STAYS_QUEUED = "\"prompt\":\"Wait here.\",\"route\":\"large\"";

    @Test
    void sessionsOfOneRole_shouldShareJobs_andARetryFromAnotherSessionIsAResubmission() throws IOException {
        // given: replica 1 of a service submits a job
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\"," + STAYS_QUEUED + "}";
        JsonNode submitted = invoke(asIam(submit(body), ROLE_ARN + "ecs-task-1"));
        assertThat(submitted.path("statusCode").asInt()).as(submitted.toString()).isEqualTo(202);

        // when: replica 2 (another session of the same role) reads it and retries it
        JsonNode seen = invoke(asIam(status(id), ROLE_ARN + "ecs-task-2"));
        JsonNode retried = invoke(asIam(submit(body), ROLE_ARN + "ecs-task-2"));

        // then: one job, which both see (a resubmission of a job still queued sends its message again: the same
        // stored id, which a worker runs once)
        assertThat(seen.path("statusCode").asInt()).as(seen.toString()).isEqualTo(200);
        assertThat(bodyOf(seen).path("requestId").asText()).isEqualTo(id);
        assertThat(retried.path("statusCode").asInt()).as(retried.toString()).isEqualTo(200);
        Owner role = aws.ownerIds().of(new CallerIdentity.IamRole("aws", "123456789012", "inference-client"));
        String stored = JobIds.stored(role, id);
        assertThat(probe.drainTierQueues()).isNotEmpty().extracting(m -> LocalAwsProbe.job(m).requestId())
                .containsOnly(stored);
    }

    @Test
    void ownerIds_shouldBeKeyedWithTheDeploymentKey_soAnArnAloneComputesNoneOfACallersIds() throws IOException {
        // given: what anyone who knows the role's ARN computes: the digest of its identity, and stored ids from it
        CallerIdentity role = new CallerIdentity.IamRole("aws", "123456789012", "inference-client");
        Owner computable = OwnerIds.UNKEYED.of(role);
        String id = UUID.randomUUID().toString();

        // when: a session of the role submits a job
        JsonNode submitted = invoke(asIam(submit("{\"requestId\":\"" + id + "\"," + STAYS_QUEUED + "}"),
                ROLE_ARN + "ecs-task-1"));

        // then: the job is the role's under its keyed owner id, and nothing is stored under the computable one
        assertThat(submitted.path("statusCode").asInt()).as(submitted.toString()).isEqualTo(202);
        Owner keyed = aws.ownerIds().of(role);
        assertThat(probe.marker(JobIds.stored(keyed, id))).hasValueSatisfying(marker -> assertThat(marker.owner())
                .isEqualTo(keyed.value()).isNotEqualTo(computable.value()));
        assertThat(probe.marker(JobIds.stored(computable, id))).isEmpty();
    }

    @Test
    void anotherRole_shouldBeAnotherCaller() throws IOException {
        // given
        String id = UUID.randomUUID().toString();
        JsonNode submitted = invoke(asIam(submit("{\"requestId\":\"" + id + "\"," + STAYS_QUEUED + "}"),
                ROLE_ARN + "ecs-task-1"));
        assertThat(submitted.path("statusCode").asInt()).isEqualTo(202);

        // when
        JsonNode seen = invoke(asIam(status(id), OTHER_ROLE_ARN + "ecs-task-1"));

        // then
        assertThat(seen.path("statusCode").asInt()).as(seen.toString()).isEqualTo(404);
    }

    @Test
    void jwtWithoutSubjectOrTenant_shouldBe401_notTheAnonymousCaller() throws IOException {
        // given: a token API Gateway accepted (issuer, audience, expiry) that names no subject
        Map<String, String> claims = Map.of("iss", "https://idp.example.com", "aud", "gpupipe", "exp", "4102444800",
                "scope", "jobs");
        String id = UUID.randomUUID().toString();

        // when
        JsonNode submitted = invoke(asJwt(submit("{\"requestId\":\"" + id + "\"," + STAYS_QUEUED + "}"), claims));
        JsonNode status = invoke(asJwt(status(id), claims));

        // then
        for (JsonNode answer : new JsonNode[] {submitted, status}) {
            assertThat(answer.path("statusCode").asInt()).as(answer.toString()).isEqualTo(401);
            JsonNode error = bodyOf(answer).path("errors").get(0);
            assertThat(error.path("field").asText()).isEqualTo("Authorization");
            assertThat(error.path("code").asText()).isEqualTo("unauthenticated");
        }
        assertThat(probe.drainTierQueues()).isEmpty();
    }

    private static ObjectNode submit(String body) throws IOException {
        ObjectNode event = event("post-jobs.json");
        event.put("body", body);
        return event;
    }

    private static ObjectNode status(String id) throws IOException {
        ObjectNode event = event("get-job.json");
        event.put("rawPath", "/v1/jobs/" + id);
        ((ObjectNode) event.path("requestContext").path("http")).put("path", "/v1/jobs/" + id);
        ((ObjectNode) event.path("pathParameters")).put("id", id);
        return event;
    }

    /** What API Gateway's IAM authorizer puts into the event of a SigV4-signed request by {@code arn}. */
    private static ObjectNode asIam(ObjectNode event, String arn) {
        String session = arn.substring(arn.lastIndexOf('/') + 1);
        ObjectNode iam = ((ObjectNode) event.path("requestContext")).putObject("authorizer").putObject("iam");
        iam.put("accessKey", "ASIAEXAMPLEKEY");
        iam.put("accountId", "123456789012");
        iam.put("callerId", "AROAEXAMPLEROLEID:" + session);
        iam.putNull("cognitoIdentity");
        iam.putNull("principalOrgId");
        iam.put("userArn", arn);
        iam.put("userId", "AROAEXAMPLEROLEID:" + session);
        return event;
    }

    /** What API Gateway's JWT authorizer puts into the event of an accepted token with these claims. */
    private static ObjectNode asJwt(ObjectNode event, Map<String, String> claims) {
        ObjectNode jwt = ((ObjectNode) event.path("requestContext")).putObject("authorizer").putObject("jwt");
        ObjectNode values = jwt.putObject("claims");
        claims.forEach(values::put);
        jwt.putNull("scopes");
        return event;
    }

    private static JsonNode bodyOf(JsonNode response) throws IOException {
        return JobJson.mapper().readTree(response.path("body").asText());
    }

    private static ObjectNode event(String file) throws IOException {
        return (ObjectNode) JobJson.mapper().readTree(Files.readString(Path.of("events", file)));
    }

    private static JsonNode invoke(JsonNode event) throws IOException {
        String response = given().contentType("application/json").body(event.toString()).post("/_lambda_")
                .then().statusCode(200).extract().asString();
        return JobJson.mapper().readTree(response);
    }
}
