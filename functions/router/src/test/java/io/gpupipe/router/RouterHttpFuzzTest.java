package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.job.InferenceJob;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Bodies of {@link RouterFuzzTest}'s generator ({@link FuzzBodies}) through the real Quarkus handler (mock event
 * server, as API Gateway would deliver them): only 2xx and 4xx, every error names a field or the body, every 202 job
 * reaches its queue and the worker's parser reads it, nothing else reaches a queue. The many more run in-process
 * (RouterFuzzTest); each body here costs a whole HTTP round trip through the mock event server, so CI runs 300
 * ({@code -Dfuzz.http-bodies=N} for more). A failure stops the run and names the body and the seed
 * ({@code -Dfuzz.seed=N} re-runs it, see {@link FuzzRun}).
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class RouterHttpFuzzTest extends LocalAwsProbeSetup {
    static final int BODIES = 300;

    @Test
    void submit_shouldAnswer2xxOr4xxAndDeliverEveryAcceptedJobIntact_forGeneratedBodies() {
        FuzzRun run = FuzzRun.fromSystemProperties("RouterHttpFuzzTest", "fuzz.http-bodies", BODIES);
        AtomicInteger accepted = new AtomicInteger();
        run.bodies().forEach(body -> run.check(body, () -> accepted.addAndGet(postAndCheck(body.text()))));
        System.out.printf("RouterHttpFuzzTest: %d of %d accepted%n", accepted.get(), run.count());
        assertThat(accepted).as("the generator reaches the accepting path").hasPositiveValue();
    }

    /** Posts one body and checks the answer and the queues; 1 when the job was accepted (202), else 0. */
    private int postAndCheck(String body) {
        Response response = given().contentType("application/json; charset=utf-8")
                .body(body.getBytes(StandardCharsets.UTF_8)).post("/v1/jobs");
        int status = response.statusCode();
        List<Message> messages = probe.drainTierQueues();
        assertThat(status).as("HTTP status; answer: %s", response.asString()).isBetween(200, 499);
        if (status >= 400) {
            List<Map<String, String>> errors = response.jsonPath().getList("errors");
            assertThat(errors).isNotEmpty().allSatisfy(e -> RouterFuzzTest.FuzzChecks
                    .namesAFieldOrTheBody(new FieldError(e.get("field"), e.get("code"), e.get("message"))));
            assertThat(messages).as("messages for a rejected body").isEmpty();
            return 0;
        }
        String id = response.jsonPath().getString("requestId");
        if (status == 202) {
            assertThat(messages).hasSize(1);
        }
        for (Message message : messages) {
            InferenceJob job = RouterFuzzTest.FuzzChecks.asTheWorkerReadsIt(probe, message);
            assertThat(job.visibleRequestId()).isEqualTo(id);
        }
        return status == 202 ? 1 : 0;
    }
}
