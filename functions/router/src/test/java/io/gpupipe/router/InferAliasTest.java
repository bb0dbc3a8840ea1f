package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.job.InferenceJob;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/** Seed 001's curl examples against {@code POST /infer}: the answer is exactly {@code {requestId, tier}}. */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class InferAliasTest extends LocalAwsProbeSetup {
    @Test
    void infer_shouldAnswerRequestIdAndTierSmall_whenSeedSmallRequest() {
        // when
        Map<String, Object> body = given().contentType("application/json")
                .body("""
                        {
                          "requestId": "550e8400-e29b-41d4-a716-446655440000",
                          "prompt": "What is Amazon ECS? Answer briefly.",
                          "maxTokens": 128,
                          "temperature": 0.7
                        }""")
                .post("/infer")
                .then().statusCode(202).contentType("application/json").extract().jsonPath().getMap("");

        // then
        assertThat(body).containsExactlyInAnyOrderEntriesOf(Map.of(
                "requestId", "550e8400-e29b-41d4-a716-446655440000", "tier", "small"));
        List<Message> small = probe.drain(LocalAws.DEFAULT_TEXT_QUEUE);
        assertThat(small).hasSize(1);
        InferenceJob job = LocalAwsProbe.job(small.get(0));
        assertThat(job.visibleRequestId()).isEqualTo("550e8400-e29b-41d4-a716-446655440000");
        assertThat(job.maxTokens()).isEqualTo(128);
        assertThat(probe.marker(job.requestId()).orElseThrow().status()).isEqualTo(JobStatus.QUEUED);
    }

    @Test
    void infer_shouldAnswerRequestIdAndTierLarge_whenSeedLargeRouteRequest() {
        // when
        Map<String, Object> body = given().contentType("application/json")
                .body("""
                        {
                          "requestId": "550e8400-e29b-41d4-a716-446655440001",
                          "prompt": "Analyze the following contract and identify all liability clauses...",
                          "maxTokens": 2048,
                          "route": "large"
                        }""")
                .post("/infer")
                .then().statusCode(202).contentType("application/json").extract().jsonPath().getMap("");

        // then
        assertThat(body).containsExactlyInAnyOrderEntriesOf(Map.of(
                "requestId", "550e8400-e29b-41d4-a716-446655440001", "tier", "large"));
        assertThat(probe.drain(LocalAws.ESCALATION_QUEUE)).extracting(m -> LocalAwsProbe.job(m).maxTokens())
                .containsExactly(2048);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
    }
}
