package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.router.BedrockConverseStandIn.Received;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Bedrock Converse classifier, through the real SDK client, against {@link BedrockConverseStandIn}: it decides
 * only the ambiguous zone (500 < prompt ≤ 2000 chars, maxTokens ≤ 1024) and falls back to small on any failure.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(BedrockStandInResource.class)
class BedrockClassifierTest extends LocalAwsProbeSetup {
    private static final String AMBIGUOUS_PROMPT = "Compare these two architectures in depth. ".repeat(15);

    BedrockConverseStandIn standIn;

    @BeforeEach
    void setUp() {
        standIn.reset();
    }

    @Test
    void submit_shouldRouteLarge_whenClassifierAnswersLarge() {
        // given
        standIn.answer("LARGE");

        // when
        String id = submit(AMBIGUOUS_PROMPT, "large");

        // then
        assertThat(probe.drain(LocalAws.ESCALATION_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
        List<Received> calls = standIn.received();
        assertThat(calls).hasSize(1);
        assertThat(calls.get(0).modelId()).isEqualTo("amazon.nova-micro-v1:0");
        assertThat(calls.get(0).authorization()).contains("Credential=test/").contains("/us-east-1/bedrock/");
        assertThat(calls.get(0).body().at("/messages/0/content/0/text").asText()).isEqualTo(AMBIGUOUS_PROMPT);
        assertThat(calls.get(0).body().at("/system/0/text").asText()).contains("SMALL").contains("LARGE");
        assertThat(calls.get(0).body().at("/inferenceConfig/maxTokens").asInt()).isPositive();
    }

    @Test
    void submit_shouldRouteSmall_whenClassifierAnswersSmallInLowerCaseWithPunctuation() {
        standIn.answer(" small.");
        submit(AMBIGUOUS_PROMPT, "small");
        assertThat(standIn.received()).hasSize(1);
    }

    @Test
    void submit_shouldFallBackToSmallWithinTheTimeout_whenClassifierIsSlow() {
        // given
        standIn.answer("LARGE");
        standIn.delay(Duration.ofSeconds(5));

        // when
        long start = System.nanoTime();
        submit(AMBIGUOUS_PROMPT, "small");
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

        // then: the 1.5 s timeout cut the call short, long before the stand-in would have answered
        assertThat(elapsed).isLessThan(Duration.ofMillis(4000));
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).hasSize(1);
    }

    @Test
    void submit_shouldFallBackToSmall_whenClassifierAnswers500() {
        standIn.answer("LARGE");
        standIn.fail(500);
        submit(AMBIGUOUS_PROMPT, "small");
        assertThat(standIn.received()).hasSize(1);
    }

    @Test
    void submit_shouldFallBackToSmall_whenClassifierIsThrottled() {
        standIn.answer("LARGE");
        standIn.fail(429);
        submit(AMBIGUOUS_PROMPT, "small");
    }

    @Test
    void submit_shouldFallBackToSmall_whenAnswerIsUnparseable() {
        standIn.answer("It depends on the hardware: LARGE models are better, SMALL ones are cheaper.");
        submit(AMBIGUOUS_PROMPT, "small");
    }

    @Test
    void submit_shouldNotCallClassifier_whenTheRoutingTableDecidesAlone() {
        // given
        standIn.answer("LARGE");

        // when: short prompt, long prompt, large maxTokens, explicit route
        submit("Short question?", "small");
        submit("x".repeat(2001), "large");
        given().contentType("application/json")
                .body("{\"prompt\":\"" + AMBIGUOUS_PROMPT + "\",\"maxTokens\":1025}").post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo("large"));
        given().contentType("application/json")
                .body("{\"prompt\":\"" + AMBIGUOUS_PROMPT + "\",\"route\":\"small\"}").post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo("small"));

        // then
        assertThat(standIn.received()).isEmpty();
    }

    private static String submit(String prompt, String expectedTier) {
        String id = UUID.randomUUID().toString();
        given().contentType("application/json")
                .body("{\"requestId\":\"" + id + "\",\"prompt\":\"" + prompt + "\"}").post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo(expectedTier));
        return id;
    }
}
