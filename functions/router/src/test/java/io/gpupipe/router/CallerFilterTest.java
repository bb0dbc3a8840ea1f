package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobJson;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The caller is named once per request, before any resource method runs ({@link Callers}): with the JWT authorizer
 * required, every route of the API answers 401 to an event without its claims (nothing read or written), and a
 * caller's events reach the resources as that caller.
 */
@QuarkusTest
@TestProfile(CallerFilterTest.JwtRequired.class)
@WithTestResource(LocalAwsTestResource.class)
class CallerFilterTest extends LocalAwsProbeSetup {
    private static final String ID = UUID.randomUUID().toString();
    private static final String BATCH = "batch_0123456789abcdef0123456789abcdef";

    /** {@code GPUPIPE_ROUTER_AUTH=jwt}, as the SAM template deploys with a JWT authorizer. */
    public static class JwtRequired implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpupipe.router.auth", "jwt");
        }
    }

    @Test
    void everyRoute_shouldAnswer401_whenTheEventCarriesNoCaller() throws IOException {
        // given
        String job = "{\"requestId\":\"" + ID + "\",\"prompt\":\"Hi\"}";
        List<List<String>> routes = List.of(List.of("POST", "/v1/jobs", job), List.of("POST", "/infer", job),
                List.of("GET", "/v1/jobs/" + ID, ""), List.of("DELETE", "/v1/jobs/" + ID, ""),
                List.of("POST", "/v1/batches/uploads", ""), List.of("POST", "/v1/batches", "{}"),
                List.of("GET", "/v1/batches/" + BATCH, ""), List.of("DELETE", "/v1/batches/" + BATCH, ""),
                List.of("POST", "/v1/batches/" + BATCH + "/cancel", ""),
                List.of("POST", "/v1/batches/" + BATCH + "/retry", ""),
                List.of("GET", "/v1/batches/" + BATCH + "/output", ""),
                List.of("GET", "/v1/batches/" + BATCH + "/errors", ""), List.of("GET", "/v1/usage", ""));

        for (List<String> route : routes) {
            // when
            JsonNode response = invoke(event(route.get(0), route.get(1), route.get(2), null));

            // then
            assertThat(response.path("statusCode").asInt()).as(route.toString()).isEqualTo(401);
            JsonNode error = JobJson.mapper().readTree(response.path("body").asText()).path("errors").path(0);
            assertThat(error.path("code").asText()).as(route.toString()).isEqualTo("unauthenticated");
            assertThat(error.path("field").asText()).as(route.toString()).isEqualTo("Authorization");
        }
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
    }

    @Test
    void resources_shouldActForTheCallerTheAuthorizerNamed() throws IOException {
        // given
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}";

        // when
        JsonNode submitted = invoke(event("POST", "/v1/jobs", body, "caller-a"));
        JsonNode seenByA = invoke(event("GET", "/v1/jobs/" + id, "", "caller-a"));
        JsonNode seenByB = invoke(event("GET", "/v1/jobs/" + id, "", "caller-b"));

        // then
        assertThat(submitted.path("statusCode").asInt()).as(submitted.toString()).isEqualTo(202);
        assertThat(seenByA.path("statusCode").asInt()).as(seenByA.toString()).isEqualTo(200);
        assertThat(seenByB.path("statusCode").asInt()).as(seenByB.toString()).isEqualTo(404);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
    }

    /** A payload 2.0 event; {@code subject} non-null puts API Gateway's JWT authorizer claims into its context. */
    private static ObjectNode event(String method, String path, String body, String subject) {
        ObjectNode event = JobJson.mapper().createObjectNode().put("version", "2.0").put("routeKey", "$default")
                .put("rawPath", path).put("rawQueryString", "").put("body", body).put("isBase64Encoded", false);
        event.putObject("headers").put("content-type", "application/json").put("host", "api.example.com")
                .put("x-forwarded-proto", "https");
        ObjectNode context = event.putObject("requestContext").put("stage", "$default");
        context.putObject("http").put("method", method).put("path", path).put("sourceIp", "127.0.0.1");
        if (subject != null) {
            context.putObject("authorizer").putObject("jwt").putObject("claims")
                    .put("iss", "https://idp.example.com").put("sub", subject);
        }
        return event;
    }

    private static JsonNode invoke(JsonNode event) throws IOException {
        String response = given().contentType("application/json").body(event.toString()).post("/_lambda_")
                .then().statusCode(200).extract().asString();
        return JobJson.mapper().readTree(response);
    }
}
