package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.ChatRole;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.RequestIds;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.MessageAttributes;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.model.Message;

@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class SubmitJobTest extends LocalAwsProbeSetup {
    @Test
    void submit_shouldEnqueueToSmallAndWriteQueuedMarker_whenRequestIsSmall() {
        // given
        String id = UUID.randomUUID().toString();
        Instant before = Instant.now();

        // when
        JsonPath response = given().contentType("application/json")
                .body("{\"requestId\":\"" + id + "\",\"prompt\":\"What is Amazon ECS?\",\"maxTokens\":128,"
                        + "\"temperature\":0.5,\"priority\":7,\"unknownField\":true}")
                .post("/v1/jobs")
                .then().statusCode(202).contentType("application/json")
                .body("requestId", equalTo(id)).body("tier", equalTo("small")).body("status", equalTo("queued"))
                .body("statusUrl", matchesPattern("^http://localhost:\\d+/v1/jobs/" + id + "$"))
                .extract().jsonPath();

        // then
        assertThat(response.getMap("")).containsOnlyKeys("requestId", "tier", "status", "statusUrl");
        List<Message> small = probe.drain(LocalAws.DEFAULT_TEXT_QUEUE);
        assertThat(small).hasSize(1);
        assertThat(probe.drain(LocalAws.ESCALATION_QUEUE)).isEmpty();
        InferenceJob sent = LocalAwsProbe.job(small.get(0));
        assertThat(sent.visibleRequestId()).isEqualTo(id);
        assertThat(sent.task()).isEqualTo(Task.GENERATE);
        assertThat(sent.prompt()).isEqualTo("What is Amazon ECS?");
        assertThat(sent.maxTokens()).isEqualTo(128);
        assertThat(sent.temperature()).isEqualTo(0.5);
        assertThat(sent.topP()).isEqualTo(1.0);
        assertThat(sent.priority()).isEqualTo(7);
        assertThat(sent.submittedAt()).isBetween(before, Instant.now());
        assertThat(small.get(0).messageAttributes().get(MessageAttributes.TIER).stringValue()).isEqualTo("small");
        assertThat(small.get(0).messageAttributes().get(MessageAttributes.TASK).stringValue()).isEqualTo("generate");
        assertThat(small.get(0).messageAttributes().get(MessageAttributes.PRIORITY).dataType()).isEqualTo("Number");
        assertThat(small.get(0).messageAttributes().get(MessageAttributes.PRIORITY).stringValue()).isEqualTo("7");
        // sealed with the deployment key over its exact body: the worker takes the caller's owner from it
        assertThat(probe.aws.messageSeal().verifies(small.get(0).body(),
                small.get(0).messageAttributes().get(MessageAttributes.SEAL).stringValue())).isTrue();
        JobState marker = probe.marker(probe.stored(id)).orElseThrow();
        assertThat(marker.status()).isEqualTo(JobStatus.QUEUED);
        assertThat(marker.tier()).isEqualTo(Tier.of("small"));
        assertThat(marker.task()).isEqualTo(Task.GENERATE);
        assertThat(marker.submittedAt()).isEqualTo(sent.submittedAt());
    }

    @Test
    void submit_shouldEnqueueToLarge_whenMaxTokensAboveThreshold() {
        // given
        String id = UUID.randomUUID().toString();

        // when
        given().contentType("application/json")
                .body("{\"requestId\":\"" + id + "\",\"prompt\":\"Write an essay.\",\"maxTokens\":1025}")
                .post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo("large"));

        // then
        List<Message> large = probe.drain(LocalAws.ESCALATION_QUEUE);
        assertThat(large).extracting(m -> LocalAwsProbe.job(m).visibleRequestId()).containsExactly(id);
        assertThat(large.get(0).messageAttributes().get(MessageAttributes.TIER).stringValue()).isEqualTo("large");
        assertThat(large.get(0).messageAttributes()).doesNotContainKey(MessageAttributes.PRIORITY);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
        assertThat(probe.marker(probe.stored(id)).orElseThrow().tier()).isEqualTo(Tier.of("large"));
    }

    @Test
    void submit_shouldAdmitAndRouteLarge_whenPromptHasTheMaximum100000Chars() {
        // given
        String id = UUID.randomUUID().toString();
        String prompt = "é".repeat(JobRequestParser.MAX_PROMPT_CHARS);

        // when
        given().contentType("application/json; charset=utf-8")
                .body("{\"requestId\":\"" + id + "\",\"prompt\":\"" + prompt + "\"}")
                .post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo("large"));

        // then
        List<Message> large = probe.drain(LocalAws.ESCALATION_QUEUE);
        assertThat(large).hasSize(1);
        assertThat(LocalAwsProbe.job(large.get(0)).prompt()).isEqualTo(prompt);
    }

    @Test
    void submit_shouldRouteSmall_whenExplicitRouteOverridesLongPrompt() {
        // given
        String id = UUID.randomUUID().toString();

        // when
        given().contentType("application/json")
                .body("{\"requestId\":\"" + id + "\",\"prompt\":\"" + "x".repeat(3000) + "\",\"route\":\"small\"}")
                .post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo("small"));

        // then
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json; charset=UTF-8", "application/vnd.gpupipe+json", "APPLICATION/JSON"})
    void submit_shouldAccept_whenContentTypeIsJson(String contentType) {
        // given
        String id = UUID.randomUUID().toString();
        byte[] body = ("{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}").getBytes(StandardCharsets.UTF_8);

        // when
        given().header("Content-Type", contentType).body(body)
                .post("/v1/jobs").then().statusCode(202).body("requestId", equalTo(id));

        // then
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
    }

    @Test
    void submit_shouldGenerateRequestId_whenAbsent() {
        // when
        String id = given().contentType("application/json")
                .body("{\"prompt\":\"Hello\",\"task\":\"speech\",\"voice\":\"kevin16\"}")
                .post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo("speech"))
                .extract().path("requestId");

        // then: a speech job goes to the speech tier's queue (seed 000), nothing to the text tiers
        assertThat(RequestIds.isValid(id)).isTrue();
        List<Message> speech = probe.drain("gpupipe-speech");
        assertThat(speech).extracting(m -> LocalAwsProbe.job(m).visibleRequestId()).containsExactly(id);
        assertThat(speech.get(0).messageAttributes().get(MessageAttributes.TASK).stringValue()).isEqualTo("speech");
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
        assertThat(probe.marker(probe.stored(id)).orElseThrow().task()).isEqualTo(Task.SPEECH);
    }

    @Test
    void submit_shouldAnswer400NamingRoute_whenTheRoutedTierCannotServeTheTask() {
        given().contentType("application/json")
                .body("{\"prompt\":\"Hello\",\"task\":\"speech\",\"route\":\"small\"}")
                .post("/v1/jobs")
                .then().statusCode(400).body("errors[0].field", equalTo("route"))
                .body("errors[0].message", equalTo("route small cannot serve speech jobs; tiers serving speech: speech"));
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
    }

    @Test
    void submit_shouldNormaliseRequestIdToLowerCase_whenGivenInUpperCase() {
        // given
        String id = UUID.randomUUID().toString();

        // when
        given().contentType("application/json")
                .body("{\"requestId\":\"" + id.toUpperCase() + "\",\"prompt\":\"Hello\"}")
                .post("/v1/jobs")
                .then().statusCode(202).body("requestId", equalTo(id));

        // then
        assertThat(probe.marker(probe.stored(id))).isPresent();
    }

    @Test
    void submit_shouldAnswer200AndEnqueueNothing_whenRequestIdIsReusedForADifferentRequest() {
        // given
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hello again\"}";
        given().contentType("application/json").body(body).post("/v1/jobs").then().statusCode(202);
        String firstMarker = probe.object("jobs/" + probe.stored(id) + ".json").orElseThrow();

        // when: another request under the same requestId
        given().contentType("application/json").body(body.replace("Hello again", "A different prompt"))
                .post("/v1/jobs")
                .then().statusCode(200)
                .body("requestId", equalTo(id)).body("status", equalTo("queued")).body("tier", equalTo("small"))
                .body("statusUrl", matchesPattern("^http://localhost:\\d+/v1/jobs/" + id + "$"));

        // then: only the first request is queued, its marker untouched
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).prompt())
                .containsExactly("Hello again");
        assertThat(probe.object("jobs/" + probe.stored(id) + ".json")).contains(firstMarker);
    }

    @Test
    void submit_shouldAnswer200AndEnqueueTheSameJobAgain_whenIdenticalRequestIsResubmittedWhileQueued() {
        // given: a job still queued (no worker has started it)
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hello again\"}";
        given().contentType("application/json").body(body).post("/v1/jobs").then().statusCode(202);

        // when: the same request again (a client that never saw the first answer), through the seed alias
        given().contentType("application/json").body(body).post("/infer")
                .then().statusCode(200).body("requestId", equalTo(id)).body("tier", equalTo("small"));

        // then: the job is on its queue again (the worker de-duplicates), unchanged
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).prompt())
                .containsExactly("Hello again", "Hello again");
    }

    // ---- chat jobs: messages instead of prompt ----

    @Test
    void submit_shouldQueueTheMessages_whenChatJobIsValid() {
        String id = UUID.randomUUID().toString();

        given().contentType("application/json")
                .body("{\"requestId\":\"" + id + "\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                        + "{\"role\":\"user\",\"content\":\"What is Amazon ECS?\"}],\"maxTokens\":64}")
                .post("/v1/jobs")
                .then().statusCode(202).body("requestId", equalTo(id)).body("tier", equalTo("small"));

        List<Message> small = probe.drain(LocalAws.DEFAULT_TEXT_QUEUE);
        assertThat(small).hasSize(1);
        InferenceJob sent = LocalAwsProbe.job(small.get(0));
        assertThat(sent.prompt()).isNull();
        assertThat(sent.messages()).containsExactly(new ChatMessage(ChatRole.SYSTEM, "Be brief."),
                new ChatMessage(ChatRole.USER, "What is Amazon ECS?"));
        assertThat(sent.maxTokens()).isEqualTo(64);
    }

    @Test
    void submit_shouldRouteLarge_whenMessagesTogetherExceedTheLongPromptThreshold() {
        String content = "x".repeat(1_001);

        given().contentType("application/json")
                .body("{\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"},"
                        + "{\"role\":\"user\",\"content\":\"" + content + "\"}]}")
                .post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo("large"));

        assertThat(probe.drain(LocalAws.ESCALATION_QUEUE)).hasSize(1);
    }

    @Test
    void submit_shouldAnswer400NamingEachBadField_whenChatInputIsWrong() {
        given().contentType("application/json")
                .body("{\"messages\":[{\"role\":\"robot\",\"content\":\"hi\"},{\"role\":\"user\",\"content\":\"\"}]}")
                .post("/v1/jobs")
                .then().statusCode(400)
                .body("errors.field", equalTo(List.of("messages[0].role", "messages[1].content")))
                .body("errors.code", equalTo(List.of(ErrorCodes.INVALID_VALUE, ErrorCodes.REQUIRED)));

        given().contentType("application/json")
                .body("{\"prompt\":\"hi\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .post("/v1/jobs")
                .then().statusCode(400)
                .body("errors[0].field", equalTo("messages"))
                .body("errors[0].code", equalTo(ErrorCodes.MUTUALLY_EXCLUSIVE));

        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
        assertThat(probe.drain(LocalAws.ESCALATION_QUEUE)).isEmpty();
    }
}
