package io.gpupipe.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobRequestParser.Outcome;
import io.gpupipe.model.job.JobRequestParser.Source;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JobRequestParserTest {
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private static final String ID = "550e8400-e29b-41d4-a716-446655440000";
    private static final UUID GENERATED = UUID.fromString("00000000-0000-4000-8000-000000000001");

    private final JobRequestParser parser = new JobRequestParser(() -> GENERATED);

    private Outcome parseApi(String json) {
        return parser.parse(json, Source.API);
    }

    private InferenceJob valid(String json) {
        Outcome outcome = parseApi(json);
        assertThat(outcome).isInstanceOf(Outcome.Valid.class);
        return ((Outcome.Valid) outcome).job();
    }

    private Outcome.Invalid invalid(String json, Source source) {
        Outcome outcome = parser.parse(json, source);
        assertThat(outcome).isInstanceOf(Outcome.Invalid.class);
        return (Outcome.Invalid) outcome;
    }

    private Outcome.Invalid invalid(String json) {
        return invalid(json, Source.API);
    }

    @Test
    void parse_shouldApplyDefaults_whenOnlyPromptGiven() {
        // when
        InferenceJob job = valid("{\"prompt\":\"hi\"}");

        // then
        assertThat(job.clientRequestId()).isEqualTo(GENERATED.toString());
        assertThat(job.task()).isEqualTo(Task.GENERATE);
        assertThat(job.maxTokens()).isEqualTo(256);
        assertThat(job.temperature()).isEqualTo(0.7);
        assertThat(job.topP()).isEqualTo(1.0);
        assertThat(job.route()).isNull();
        assertThat(job.submittedAt()).isNull();
    }

    @Test
    void parse_shouldReadSeedExample_whenAllSeedFieldsGiven() {
        InferenceJob job = valid("{\"requestId\":\"" + ID + "\",\"prompt\":\"What is Amazon ECS? Answer briefly.\","
                + "\"maxTokens\":128,\"temperature\":0.7,\"topP\":0.9,\"route\":\"large\"}");

        assertThat(job.clientRequestId()).isEqualTo(ID);
        assertThat(job.maxTokens()).isEqualTo(128);
        assertThat(job.topP()).isEqualTo(0.9);
        assertThat(job.route()).isEqualTo(Tier.of("large"));
    }

    @Test
    void parse_shouldLowerCaseRequestId_whenGivenInUpperCase() {
        assertThat(valid("{\"requestId\":\"" + ID.toUpperCase() + "\",\"prompt\":\"x\"}").clientRequestId())
                .isEqualTo(ID);
    }

    @Test
    void parse_shouldIgnoreUnknownFields() {
        assertThat(valid("{\"prompt\":\"x\",\"model\":\"mistral\",\"extra\":{\"a\":[1]}}").prompt()).isEqualTo("x");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2048})
    void parse_shouldAcceptMaxTokens_atBoundaries(int maxTokens) {
        assertThat(valid("{\"prompt\":\"x\",\"maxTokens\":" + maxTokens + "}").maxTokens()).isEqualTo(maxTokens);
    }

    @ParameterizedTest
    @CsvSource({"0, out_of_range", "2049, out_of_range", "-1, out_of_range", "1.5, invalid_type",
        "true, invalid_type", "'\"256\"', invalid_type", "256.0, invalid_type", "99999999999, out_of_range"})
    void parse_shouldRejectMaxTokens_whenNotAnIntegerInRange(String value, String code) {
        Outcome.Invalid outcome = invalid("{\"prompt\":\"x\",\"maxTokens\":" + value + "}");

        assertThat(outcome.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("maxTokens");
            assertThat(e.code()).isEqualTo(code);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0", "2.0", "0", "2", "1"})
    void parse_shouldAcceptTemperature_atBoundariesAndAsInteger(String value) {
        assertThat(valid("{\"prompt\":\"x\",\"temperature\":" + value + "}").temperature())
                .isEqualTo(Double.parseDouble(value));
    }

    @ParameterizedTest
    @CsvSource({"-0.01, out_of_range", "2.01, out_of_range", "false, invalid_type", "'\"0.5\"', invalid_type"})
    void parse_shouldRejectTemperature_whenOutOfRangeOrWrongType(String value, String code) {
        assertThat(invalid("{\"prompt\":\"x\",\"temperature\":" + value + "}").errors())
                .singleElement().extracting(FieldError::field, FieldError::code).containsExactly("temperature", code);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0", "1.0", "0", "1"})
    void parse_shouldAcceptTopP_atBoundaries(String value) {
        assertThat(valid("{\"prompt\":\"x\",\"topP\":" + value + "}").topP()).isEqualTo(Double.parseDouble(value));
    }

    @ParameterizedTest
    @CsvSource({"-0.1, out_of_range", "1.01, out_of_range", "'[]', invalid_type"})
    void parse_shouldRejectTopP_whenOutOfRangeOrWrongType(String value, String code) {
        assertThat(invalid("{\"prompt\":\"x\",\"topP\":" + value + "}").errors())
                .singleElement().extracting(FieldError::field, FieldError::code).containsExactly("topP", code);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"\"", "\"   \"", "\"\\n\\t \"", "null"})
    void parse_shouldRejectPrompt_whenMissingEmptyOrWhitespace(String value) {
        assertThat(invalid("{\"prompt\":" + value + "}").errors())
                .singleElement().extracting(FieldError::field, FieldError::code).containsExactly("prompt", "required");
    }

    @Test
    void parse_shouldRejectPrompt_whenNotAString() {
        assertThat(invalid("{\"prompt\":42}").errors())
                .singleElement().extracting(FieldError::field, FieldError::code)
                .containsExactly("prompt", "invalid_type");
    }

    @Test
    void parse_shouldEnforcePromptLimit_atExactlyMaxChars() {
        String atLimit = "a".repeat(JobRequestParser.MAX_PROMPT_CHARS);
        assertThat(valid("{\"prompt\":\"" + atLimit + "\"}").prompt()).hasSize(100_000);

        assertThat(invalid("{\"prompt\":\"" + atLimit + "a\"}").errors())
                .singleElement().extracting(FieldError::code).isEqualTo("too_long");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "\"6ba7b810-9dad-11d1-80b4-00c04fd430c8\"", // version 1
        "\"550e8400-e29b-31d4-a716-446655440000\"", // version 3
        "\"550e8400-e29b-41d4-c716-446655440000\"", // wrong variant
        "\"not-a-uuid\"", "\"\""})
    void parse_shouldRejectRequestId_whenNotUuidV4(String value) {
        Outcome.Invalid outcome = invalid("{\"requestId\":" + value + ",\"prompt\":\"x\"}");

        assertThat(outcome.errors()).singleElement().extracting(FieldError::field, FieldError::code)
                .containsExactly("requestId", "invalid_format");
        assertThat(outcome.requestId()).isEmpty();
    }

    @Test
    void parse_shouldRejectRequestId_whenNotAString() {
        assertThat(invalid("{\"requestId\":12,\"prompt\":\"x\"}").errors())
                .singleElement().extracting(FieldError::code).isEqualTo("invalid_type");
    }

    @Test
    void parse_shouldRequireRequestId_whenFromQueue() {
        assertThat(invalid("{\"prompt\":\"x\"}", Source.QUEUE).errors())
                .singleElement().extracting(FieldError::field, FieldError::code)
                .containsExactly("requestId", "required");
    }

    @Test
    void parse_shouldReturnEveryErrorAndTheRequestId_whenSeveralFieldsAreBad() {
        Outcome.Invalid outcome = invalid("{\"requestId\":\"" + ID + "\",\"prompt\":\" \",\"maxTokens\":true,"
                + "\"temperature\":3,\"topP\":\"x\",\"route\":\"medium\",\"task\":\"draw\",\"ttlSeconds\":5,"
                + "\"priority\":1.5,\"callbackUrl\":\"http://example.com/hook\"}");

        assertThat(outcome.errors()).extracting(FieldError::field).containsExactlyInAnyOrder("prompt", "maxTokens",
                "temperature", "topP", "route", "task", "ttlSeconds", "priority", "callbackUrl");
        assertThat(outcome.requestId()).contains(ID);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "null | required", "[] | invalid_type", "[{\"prompt\":\"x\"}] | invalid_type", "\"text\" | invalid_type",
        "42 | invalid_type", "{not json | invalid_format", "'' | required"})
    void parse_shouldReportBodyError_whenBodyIsNotAnObject(String body, String code) {
        assertThat(invalid(body).errors()).singleElement()
                .extracting(FieldError::field, FieldError::code).containsExactly("body", code);
    }

    @Test
    void parse_shouldReportBodyError_whenJavaNull() {
        assertThat(invalid(null).errors()).singleElement().extracting(FieldError::field).isEqualTo("body");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com/hook", "http://localhost:9000/cb", "http://127.0.0.1/cb",
        "HTTPS://Example.com/x"})
    void parse_shouldAcceptCallbackUrl_whenHttpsOrLocalHttp(String url) {
        assertThat(valid("{\"prompt\":\"x\",\"callbackUrl\":\"" + url + "\"}").callbackUrl()).isEqualTo(url);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com/hook", "ftp://example.com/x", "https://", "not a url", "/relative"})
    void parse_shouldRejectCallbackUrl_whenNotHttpsNorLocalHttp(String url) {
        assertThat(invalid("{\"prompt\":\"x\",\"callbackUrl\":\"" + url + "\"}").errors())
                .singleElement().extracting(FieldError::field).isEqualTo("callbackUrl");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://169.254.169.254/x", "https://[::ffff:169.254.169.254]/x",
        "https://[::ffff:a9fe:a9fe]/x", "https://2852039166/x", "https://0251.0376.0251.0376/x",
        "https://0xa9fea9fe/x", "https://0xA9FEA9FE:8443/x", "https://169.254.43518/x", "https://169.16689662/x",
        "https://0251.254.169.254/x", "https://169.254.169.254./x", "https://[fe80::1%25eth0]/x",
        "https://[64:ff9b::a9fe:a9fe]/x", "https://10.0.0.1/x", "https://012/x", "https://0x7f.1/x",
        "https://[::ffff:127.0.0.1]/x", "https://4294967296/x", "https://1.2.3.4.5/x", "https://%31%30.0.0.1/x",
        "https://1572395042/x"})
    void parse_shouldRejectCallbackUrl_whenHostIsAnIpLiteralInAnyFormThatIsNotAPlainPublicAddress(String url) {
        assertThat(invalid("{\"prompt\":\"x\",\"callbackUrl\":\"" + url + "\"}").errors())
                .singleElement().satisfies(e -> {
                    assertThat(e.field()).isEqualTo("callbackUrl");
                    assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_VALUE);
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://93.184.216.34/hook", "https://[2606:2800:220:1:248:1893:25c8:1946]/hook",
        "https://hooks.example.com:8443/x", "https://xn--bcher-kva.example/x", "https://a1.example.com./x"})
    void parse_shouldAcceptCallbackUrl_whenHostIsAPublicLiteralOrAName(String url) {
        assertThat(valid("{\"prompt\":\"x\",\"callbackUrl\":\"" + url + "\"}").callbackUrl()).isEqualTo(url);
    }

    @ParameterizedTest
    @CsvSource({"59, false", "60, true", "86400, true", "86401, false"})
    void parse_shouldBoundTtlSeconds(int ttl, boolean accepted) {
        Outcome outcome = parseApi("{\"prompt\":\"x\",\"ttlSeconds\":" + ttl + "}");
        assertThat(outcome instanceof Outcome.Valid).isEqualTo(accepted);
    }

    @Test
    void parse_shouldReadSpeechJobWithVoice() {
        InferenceJob job = valid("{\"task\":\"speech\",\"prompt\":\"Hello there\",\"voice\":\"kevin16\"}");

        assertThat(job.task()).isEqualTo(Task.SPEECH);
        assertThat(job.voice()).isEqualTo("kevin16");
    }

    @Test
    void parse_shouldRejectVoice_whenTaskIsGenerate() {
        assertThat(invalid("{\"prompt\":\"x\",\"voice\":\"kevin16\"}").errors())
                .singleElement().extracting(FieldError::code).isEqualTo("not_applicable");
    }

    @Test
    void parse_shouldIgnoreClientSubmittedAt_whenFromApi() {
        assertThat(valid("{\"prompt\":\"x\",\"submittedAt\":\"2020-01-01T00:00:00Z\"}").submittedAt()).isNull();
    }

    @Test
    void parse_shouldReadSubmittedAt_whenFromQueue() {
        Outcome outcome = parser.parse("{\"requestId\":\"" + ID + "\",\"prompt\":\"x\",\"ttlSeconds\":60,"
                + "\"submittedAt\":\"2026-05-03T04:35:47.906Z\"}", Source.QUEUE);

        InferenceJob job = ((Outcome.Valid) outcome).job();
        assertThat(job.submittedAt()).isEqualTo(Instant.parse("2026-05-03T04:35:47.906Z"));
        assertThat(job.isExpiredAt(Instant.parse("2026-05-03T04:36:47.906Z"))).isFalse();
        assertThat(job.isExpiredAt(Instant.parse("2026-05-03T04:36:47.907Z"))).isTrue();
    }

    @Test
    void parse_shouldRoundTripThroughTheSharedJson_whenRouterWritesAndWorkerReads() {
        InferenceJob sent = valid("{\"requestId\":\"" + ID + "\",\"prompt\":\"x\",\"priority\":-3,\"ttlSeconds\":120}")
                .withSubmittedAt(Instant.parse("2026-11-29T10:00:00Z")).submittedBy(ALICE);

        Outcome received = parser.parse(JobJson.write(sent), Source.QUEUE);

        assertThat(received).isEqualTo(new Outcome.Valid(sent));
    }

    @Test
    void parse_shouldReadSpeechOptions_whenTaskIsSpeech() {
        InferenceJob job = valid("{\"task\":\"speech\",\"prompt\":\"Hi\",\"voice\":\"vivian\","
                + "\"language\":\"english\",\"speed\":1.5,\"instructions\":\"Speak warmly\"}");

        assertThat(job.language()).isEqualTo("English");
        assertThat(job.speed()).isEqualTo(1.5);
        assertThat(job.instructions()).isEqualTo("Speak warmly");
    }

    @ParameterizedTest
    @CsvSource({"0.24, false", "0.25, true", "4.0, true", "4.01, false"})
    void parse_shouldBoundSpeed(String speed, boolean accepted) {
        Outcome outcome = parseApi("{\"task\":\"speech\",\"prompt\":\"x\",\"speed\":" + speed + "}");

        assertThat(outcome instanceof Outcome.Valid).isEqualTo(accepted);
        if (!accepted) {
            assertThat(((Outcome.Invalid) outcome).errors()).singleElement()
                    .isEqualTo(new FieldError("speed", "out_of_range", "speed must be between 0.25 and 4.0, got "
                            + speed));
        }
    }

    @Test
    void parse_shouldNameEachBadSpeechField_whenSeveralAreWrong() {
        Outcome.Invalid outcome = invalid("{\"task\":\"speech\",\"prompt\":\"x\",\"language\":\"Klingon\","
                + "\"speed\":\"fast\",\"instructions\":\"" + "a".repeat(501) + "\"}");

        assertThat(outcome.errors()).extracting(FieldError::field, FieldError::code).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("language", "invalid_value"),
                org.assertj.core.groups.Tuple.tuple("speed", "invalid_type"),
                org.assertj.core.groups.Tuple.tuple("instructions", "too_long"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"language\":\"English\"", "\"speed\":1.0", "\"instructions\":\"calm\""})
    void parse_shouldRejectSpeechOption_whenTaskIsGenerate(String field) {
        assertThat(invalid("{\"prompt\":\"x\"," + field + "}").errors())
                .singleElement().extracting(FieldError::code).isEqualTo("not_applicable");
    }

    @Test
    void parse_shouldRoundTripSpeechOptions_whenRouterWritesAndWorkerReads() {
        InferenceJob sent = valid("{\"requestId\":\"" + ID + "\",\"task\":\"speech\",\"prompt\":\"x\","
                + "\"language\":\"German\",\"speed\":0.5,\"instructions\":\"slowly\"}").submittedBy(ALICE);

        assertThat(parser.parse(JobJson.write(sent), Source.QUEUE)).isEqualTo(new Outcome.Valid(sent));
    }
}
