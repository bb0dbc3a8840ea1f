package io.gpupipe.router;

import static io.gpupipe.testsupport.LambdaInvocations.invokeHttp;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Raw API Gateway HTTP API v2 events (the {@code events/*.json} files that {@code sam local invoke} uses) posted to
 * the mock event server's {@code /_lambda_} endpoint; the answer is the handler's APIGatewayV2HTTPResponse.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class LambdaEventTest extends LocalAwsProbeSetup {
    private static final String JOB_ID = "3f1c2b8e-7d4a-4c1e-9b2f-0a1b2c3d4e5f";

    @Test
    void handler_shouldSubmitShowAndCancel_whenGivenTheSamEventFiles() throws IOException {
        // when: submit
        JsonNode submitted = invokeHttp(event("post-jobs.json").toString());

        // then
        assertThat(submitted.get("statusCode").asInt()).isEqualTo(202);
        assertThat(submitted.get("headers").get("Content-Type").asText()).startsWith("application/json");
        JsonNode body = JobJson.mapper().readTree(submitted.get("body").asText());
        assertThat(body.get("requestId").asText()).isEqualTo(JOB_ID);
        assertThat(body.get("tier").asText()).isEqualTo("small");
        assertThat(body.get("statusUrl").asText())
                .isEqualTo("https://abc123.execute-api.us-east-1.amazonaws.com/v1/jobs/" + JOB_ID);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).priority())
                .containsExactly(5);

        // when, then: status
        JsonNode status = invokeHttp(event("get-job.json").toString());
        assertThat(status.get("statusCode").asInt()).isEqualTo(200);
        assertThat(JobJson.mapper().readTree(status.get("body").asText()).get("status").asText()).isEqualTo("queued");

        // when, then: cancel
        JsonNode cancelled = invokeHttp(event("delete-job.json").toString());
        assertThat(cancelled.get("statusCode").asInt()).isEqualTo(202);
        assertThat(probe.marker(probe.stored(JOB_ID)).orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
    }

    @Test
    void handler_shouldAnswerSeedShape_whenGivenTheInferEventFile() throws IOException {
        // when
        JsonNode response = invokeHttp(event("post-infer-seed.json").toString());

        // then
        assertThat(response.get("statusCode").asInt()).isEqualTo(202);
        JsonNode body = JobJson.mapper().readTree(response.get("body").asText());
        assertThat(body.size()).isEqualTo(2);
        assertThat(body.get("requestId").asText()).isEqualTo("550e8400-e29b-41d4-a716-446655440002");
        assertThat(body.get("tier").asText()).isEqualTo("small");
    }

    @Test
    void handler_shouldAnswer400WithEveryError_whenGivenTheInvalidEventFile() throws IOException {
        // when
        JsonNode response = invokeHttp(event("post-jobs-invalid.json").toString());

        // then
        assertThat(response.get("statusCode").asInt()).isEqualTo(400);
        JsonNode errors = JobJson.mapper().readTree(response.get("body").asText()).get("errors");
        assertThat(errors.findValuesAsText("field"))
                .containsExactlyInAnyOrder("requestId", "prompt", "maxTokens", "temperature", "route");
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
        assertThat(probe.drain(LocalAws.ESCALATION_QUEUE)).isEmpty();
    }

    @Test
    void handler_shouldDecodeBody_whenEventIsBase64Encoded() throws IOException {
        // given
        String id = UUID.randomUUID().toString();
        ObjectNode event = event("post-jobs.json");
        String json = "{\"requestId\":\"" + id + "\",\"prompt\":\"Grüße aus Köln\"}";
        event.put("body", Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)));
        event.put("isBase64Encoded", true);

        // when
        JsonNode response = invokeHttp(event.toString());

        // then
        assertThat(response.get("statusCode").asInt()).isEqualTo(202);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).prompt())
                .containsExactly("Grüße aus Köln");
    }

    @Test
    void handler_shouldReadBodyAsJson_whenEventHasNoContentType() throws IOException {
        // given
        String id = UUID.randomUUID().toString();
        ObjectNode event = event("post-jobs.json");
        ((ObjectNode) event.get("headers")).remove("content-type");
        event.put("body", "{\"requestId\":\"" + id + "\",\"prompt\":\"No content type\"}");

        // when
        JsonNode response = invokeHttp(event.toString());

        // then
        assertThat(response.get("statusCode").asInt()).isEqualTo(202);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
    }

    private static ObjectNode event(String file) throws IOException {
        return (ObjectNode) JobJson.mapper().readTree(Files.readString(Path.of("events", file)));
    }
}
