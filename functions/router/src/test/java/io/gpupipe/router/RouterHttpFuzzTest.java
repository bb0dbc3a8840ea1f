package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.InferenceJob;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A sample of {@link RouterFuzzTest}'s bodies through the real Quarkus handler (mock event server, as API Gateway
 * would deliver them): only 2xx and 4xx, every error names a field or the body, every 202 job reaches its queue and
 * the worker's parser reads it, nothing else reaches a queue. The many more run in-process (RouterFuzzTest); each
 * body here costs a whole HTTP round trip through the mock event server, so CI runs 300 ({@code -Dfuzz.http-bodies=N}
 * for more).
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class RouterHttpFuzzTest extends LocalAwsProbeSetup {
    static final int BODIES = Integer.getInteger("fuzz.http-bodies", 300);

    @Test
    void submit_shouldAnswer2xxOr4xxAndDeliverEveryAcceptedJobIntact_forGeneratedBodies() {
        int accepted = 0;
        for (String body : FuzzBodies.bodies().sampleStream().limit(BODIES).toList()) {
            Response response = given().contentType("application/json; charset=utf-8")
                    .body(body.getBytes(StandardCharsets.UTF_8)).post("/v1/jobs");
            int status = response.statusCode();
            assertThat(status).as(abbreviated(body)).isBetween(200, 499);
            List<Message> messages = probe.drainTierQueues();
            if (status >= 400) {
                List<Map<String, String>> errors = response.jsonPath().getList("errors");
                assertThat(errors).as(abbreviated(body)).isNotEmpty().allSatisfy(e -> RouterFuzzTest.FuzzChecks
                        .namesAFieldOrTheBody(new FieldError(e.get("field"), e.get("code"), e.get("message"))));
                assertThat(messages).as("nothing reaches a queue for " + abbreviated(body)).isEmpty();
                continue;
            }
            String id = response.jsonPath().getString("requestId");
            if (status == 202) {
                accepted++;
                assertThat(messages).hasSize(1);
            }
            for (Message message : messages) {
                InferenceJob job = RouterFuzzTest.FuzzChecks.asTheWorkerReadsIt(probe, message);
                assertThat(job.requestId()).isEqualTo(id);
            }
        }
        System.out.printf("RouterHttpFuzzTest: %d of %d accepted%n", accepted, BODIES);
        assertThat(accepted).as("the generator reaches the accepting path").isPositive();
    }

    private static String abbreviated(String body) {
        return body.length() <= 200 ? body : body.substring(0, 200) + "… (" + body.length() + " chars)";
    }
}
