package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.ErrorCodes;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every client mistake gets a 4xx JSON naming the problem, and nothing is stored or enqueued. */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class SubmitValidationTest extends LocalAwsProbeSetup {
    @AfterEach
    void tearDown() {
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).as("small queue").isEmpty();
        assertThat(probe.drain(LocalAws.ESCALATION_QUEUE)).as("large queue").isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"maxTokens\":\"abc\"   | maxTokens   | invalid_type",
        "\"maxTokens\":1.5       | maxTokens   | invalid_type",
        "\"maxTokens\":true      | maxTokens   | invalid_type",
        "\"maxTokens\":0         | maxTokens   | out_of_range",
        "\"maxTokens\":2049      | maxTokens   | out_of_range",
        "\"temperature\":\"hot\" | temperature | invalid_type",
        "\"temperature\":2.01    | temperature | out_of_range",
        "\"topP\":[1]            | topP        | invalid_type",
        "\"route\":\"medium\"    | route       | invalid_value",
        "\"route\":7             | route       | invalid_type",
        "\"task\":\"vision\"     | task        | invalid_value",
        "\"callbackUrl\":\"http://example.com/hook\" | callbackUrl | invalid_value",
        "\"ttlSeconds\":59       | ttlSeconds  | out_of_range",
        "\"requestId\":\"6ba7b810-9dad-11d1-80b4-00c04fd430c8\" | requestId | invalid_format",
        "\"requestId\":42        | requestId   | invalid_type"})
    void submit_shouldAnswer400NamingTheField_whenOneFieldIsWrong(String field, String name, String code) {
        given().contentType("application/json").body("{\"prompt\":\"Hello\"," + field + "}")
                .post("/v1/jobs")
                .then().statusCode(400).contentType("application/json")
                .body("errors", hasSize(1))
                .body("errors[0].field", equalTo(name))
                .body("errors[0].code", equalTo(code))
                .body("errors[0].message", containsString(name));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:169.254.169.254]/hook",
        "https://[::ffff:a9fe:a9fe]/hook",
        "https://2852039166/hook",
        "https://0251.0376.0251.0376/hook",
        "https://0xa9fea9fe/hook",
        "https://0xA9.0xFE.0xA9.0xFE/hook",
        "https://169.254.43518/hook",
        "https://169.16689662/hook",
        "https://10.1/hook",
        "https://[fe80::1%25eth0]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://[fd00:ec2::254]/hook"})
    void submit_shouldAnswer400NamingCallbackUrl_whenHostIsALiteralNonPublicAddressInAnyForm(String url) {
        given().contentType("application/json").body("{\"prompt\":\"Hello\",\"callbackUrl\":\"" + url + "\"}")
                .post("/v1/jobs")
                .then().statusCode(400).contentType("application/json")
                .body("errors", hasSize(1))
                .body("errors[0].field", equalTo("callbackUrl"))
                .body("errors[0].code", equalTo(ErrorCodes.INVALID_VALUE));
    }

    @Test
    void submit_shouldReportEveryError_whenSeveralFieldsAreWrong() {
        // when
        JsonPath body = given().contentType("application/json")
                .body("{\"requestId\":\"not-a-uuid\",\"prompt\":\"   \",\"maxTokens\":5000,\"temperature\":3,"
                        + "\"topP\":-0.1,\"route\":\"medium\"}")
                .post("/v1/jobs")
                .then().statusCode(400).extract().jsonPath();

        // then
        List<Map<String, String>> errors = body.getList("errors");
        assertThat(errors).extracting(e -> e.get("field") + ":" + e.get("code")).containsExactlyInAnyOrder(
                "requestId:invalid_format", "prompt:required", "maxTokens:out_of_range",
                "temperature:out_of_range", "topP:out_of_range", "route:invalid_value");
    }

    @Test
    void submit_shouldEchoRequestId_whenBodyInvalidButIdValid() {
        String id = UUID.randomUUID().toString();
        given().contentType("application/json").body("{\"requestId\":\"" + id + "\"}")
                .post("/v1/jobs")
                .then().statusCode(400).body("requestId", equalTo(id))
                .body("errors[0].field", equalTo("prompt")).body("errors[0].code", equalTo(ErrorCodes.REQUIRED));
        assertThat(probe.marker(id)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "[]                      | invalid_type",
        "[{\"prompt\":\"Hi\"}]   | invalid_type",
        "null                    | required",
        "\"a string\"            | invalid_type",
        "42                      | invalid_type",
        "{\"prompt\":            | invalid_format",
        "{'prompt':'single'}     | invalid_format",
        "not json at all         | invalid_format"})
    void submit_shouldAnswer400ForTheBody_whenBodyIsNotAJsonObject(String body, String code) {
        given().contentType("application/json").body(body)
                .post("/v1/jobs")
                .then().statusCode(400).contentType("application/json")
                .body("errors", hasSize(1))
                .body("errors[0].field", equalTo("body"))
                .body("errors[0].code", equalTo(code));
    }

    @Test
    void submit_shouldAnswer400_whenBodyIsEmpty() {
        given().contentType("application/json")
                .post("/v1/jobs")
                .then().statusCode(400)
                .body("errors[0].field", equalTo("body")).body("errors[0].code", equalTo(ErrorCodes.REQUIRED));
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "application/x-www-form-urlencoded", "application/xml",
        "multipart/form-data; boundary=x", "application/jsonx"})
    void submit_shouldAnswer415_whenContentTypeIsNotJson(String contentType) {
        // RestAssured form-encodes String bodies of form requests and cannot encode byte[] ones
        String json = "{\"prompt\":\"Hello\"}";
        var request = contentType.startsWith("application/x-www-form-urlencoded")
                ? given().header("Content-Type", contentType).body(json)
                : given().header("Content-Type", contentType).body(json.getBytes(StandardCharsets.UTF_8));
        request.post("/v1/jobs")
                .then().statusCode(415).contentType("application/json")
                .body("errors[0].field", equalTo("Content-Type"))
                .body("errors[0].code", equalTo(ApiErrorCodes.UNSUPPORTED_MEDIA_TYPE));
    }

    @Test
    void submit_shouldAnswer413_whenBodyExceedsTheLimit() {
        // given a body just over the default 512 KiB
        String body = "{\"prompt\":\"" + "a".repeat(512 * 1024) + "\"}";

        // when, then
        given().contentType("application/json").body(body)
                .post("/v1/jobs")
                .then().statusCode(413).contentType("application/json")
                .body("errors[0].field", equalTo("body"))
                .body("errors[0].code", equalTo(ApiErrorCodes.PAYLOAD_TOO_LARGE));
    }

    @Test
    void submit_shouldAnswer400TooLong_whenPromptExceeds100000CharsButBodyFits() {
        given().contentType("application/json").body("{\"prompt\":\"" + "a".repeat(100_001) + "\"}")
                .post("/v1/jobs")
                .then().statusCode(400)
                .body("errors[0].field", equalTo("prompt")).body("errors[0].code", equalTo(ErrorCodes.TOO_LONG));
    }

    @Test
    void infer_shouldAnswer400WithTheSameErrors_whenSeedEndpointGetsAnInvalidRequest() {
        given().contentType("application/json").body("{\"prompt\":\"Hi\",\"maxTokens\":\"128\"}")
                .post("/infer")
                .then().statusCode(400)
                .body("errors[0].field", equalTo("maxTokens")).body("errors[0].code", equalTo("invalid_type"));
    }

    @Test
    void unknownPath_shouldAnswer404Json_whenNoRouteMatches() {
        given().get("/v2/nothing-here")
                .then().statusCode(404).contentType("application/json")
                .body("errors[0].code", equalTo(ApiErrorCodes.NOT_FOUND));
    }

    @Test
    void wrongMethod_shouldAnswer405Json_whenRouteExistsForAnotherMethod() {
        given().contentType("application/json").body("{}").put("/v1/jobs")
                .then().statusCode(405).contentType("application/json")
                .body("errors[0].code", equalTo(ApiErrorCodes.METHOD_NOT_ALLOWED));
    }
}
