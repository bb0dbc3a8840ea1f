package io.gpupipe.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.ChatRole;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobRequestParser.Outcome;
import io.gpupipe.model.job.JobRequestParser.Source;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.routing.RoutingDecision;
import io.gpupipe.model.routing.RoutingPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Chat jobs: {@code messages} instead of {@code prompt}, validated, routed by their characters, carried intact. */
class ChatJobParsingTest {
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private static final String ID = "550e8400-e29b-41d4-a716-446655440000";
    private final JobRequestParser parser = new JobRequestParser();

    private InferenceJob valid(String json) {
        Outcome outcome = parser.parse(json, Source.API);
        assertThat(outcome).isInstanceOf(Outcome.Valid.class);
        return ((Outcome.Valid) outcome).job();
    }

    private List<FieldError> errors(String json) {
        Outcome outcome = parser.parse(json, Source.API);
        assertThat(outcome).isInstanceOf(Outcome.Invalid.class);
        return ((Outcome.Invalid) outcome).errors();
    }

    @Test
    void parse_shouldReadMessagesInOrder_whenChatJobGiven() {
        // when
        InferenceJob job = valid("""
                {"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"},
                 {"role":"assistant","content":"Hello!"},{"role":"user","content":"What is ECS?","name":"x"}]}""");

        // then
        assertThat(job.prompt()).isNull();
        assertThat(job.messages()).containsExactly(new ChatMessage(ChatRole.SYSTEM, "Be brief."),
                new ChatMessage(ChatRole.USER, "Hi"), new ChatMessage(ChatRole.ASSISTANT, "Hello!"),
                new ChatMessage(ChatRole.USER, "What is ECS?"));
        assertThat(job.inputChars()).isEqualTo(9 + 2 + 6 + 12);
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource(delimiter = '|', value = {
        "{\"prompt\":\"p\",\"messages\":[{\"role\":\"user\",\"content\":\"c\"}]} | messages | mutually_exclusive",
        "{}                                                                    | prompt   | required",
        "{\"messages\":[]}                                                     | messages | required",
        "{\"messages\":\"hi\"}                                                 | messages | invalid_type",
        "{\"messages\":[\"hi\"]}                                               | messages[0] | invalid_type",
        "{\"messages\":[{\"content\":\"c\"}]}                                  | messages[0].role | required",
        "{\"messages\":[{\"role\":\"tool\",\"content\":\"c\"}]}                | messages[0].role | invalid_value",
        "{\"messages\":[{\"role\":\"User\",\"content\":\"c\"}]}                | messages[0].role | invalid_value",
        "{\"messages\":[{\"role\":7,\"content\":\"c\"}]}                       | messages[0].role | invalid_type",
        "{\"messages\":[{\"role\":\"user\"}]}                                  | messages[0].content | required",
        "{\"messages\":[{\"role\":\"user\",\"content\":\" \\n\"}]}             | messages[0].content | required",
        "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}]} | messages[0].content | invalid_type",
        "{\"task\":\"speech\",\"messages\":[{\"role\":\"user\",\"content\":\"c\"}]} | messages | not_applicable"})
    void parse_shouldRejectNamingTheField_whenChatInputIsWrong(String json, String field, String code) {
        assertThat(errors(json)).singleElement().satisfies(error -> {
            assertThat(error.field()).isEqualTo(field);
            assertThat(error.code()).isEqualTo(code);
            assertThat(error.message()).startsWith(field.startsWith("messages[") ? field : "").isNotBlank();
        });
    }

    @Test
    void parse_shouldReportEveryBadMessage_upToTheLimit() {
        String bad = "{\"role\":\"robot\",\"content\":\"c\"},";
        String json = "{\"messages\":[" + bad.repeat(ChatMessagesReader.MAX_REPORTED_MESSAGE_ERRORS + 5)
                + "{\"role\":\"user\",\"content\":\"c\"}]}";

        List<FieldError> errors = errors(json);

        assertThat(errors).hasSize(ChatMessagesReader.MAX_REPORTED_MESSAGE_ERRORS + 1);
        assertThat(errors.get(0).field()).isEqualTo("messages[0].role");
        assertThat(errors.get(errors.size() - 1).message()).startsWith("5 more errors");
    }

    @Test
    void parse_shouldApplyThePromptLimitToTheSumOfContents() {
        int half = JobRequestParser.MAX_PROMPT_CHARS / 2;
        String atLimit = chat("a".repeat(half), "b".repeat(JobRequestParser.MAX_PROMPT_CHARS - half));
        String overLimit = chat("a".repeat(half), "b".repeat(JobRequestParser.MAX_PROMPT_CHARS - half + 1));

        assertThat(valid(atLimit).inputChars()).isEqualTo(JobRequestParser.MAX_PROMPT_CHARS);
        assertThat(errors(overLimit)).singleElement().satisfies(error -> {
            assertThat(error.field()).isEqualTo("messages");
            assertThat(error.code()).isEqualTo(ErrorCodes.TOO_LONG);
        });
    }

    @Test
    void route_shouldCountCharactersAcrossMessages() {
        // 3 messages of 700 characters: none alone is long, together 2,100 > 2,000 -> large
        InferenceJob job = valid("{\"messages\":[" + message("system", 700) + "," + message("user", 700) + ","
                + message("assistant", 700) + "]}");

        assertThat(RoutingPolicy.defaults().route(job))
                .isEqualTo(new RoutingDecision(Tier.of("large"), RoutingDecision.Reason.PROMPT_LENGTH));
    }

    @Test
    void inline_shouldCarryMessagesIntact_throughTheQueueMessage() {
        // given: content SQS cannot carry raw (U+FFFF, a lone surrogate) in a chat job
        InferenceJob job = valid("{\"requestId\":\"" + ID + "\",\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"a\\uffffb\\ud800c\"}]}").withSubmittedAt(java.time.Instant.parse("2026-12-01T06:00:00Z"))
                .submittedBy(ALICE);

        // when
        String body = JobMessage.inline(job);
        Outcome read = parser.parse(body, Source.QUEUE);

        // then
        assertThat(JobMessage.isQueueSafe(body)).isTrue();
        assertThat(JobMessage.payloadKey(body)).isEmpty();
        assertThat(read).isEqualTo(new Outcome.Valid(job));
    }

    @Test
    void requestDigest_shouldDiffer_whenOnlyAMessageRoleDiffers() {
        InferenceJob asUser = valid("{\"requestId\":\"" + ID + "\",\"messages\":[" + message("user", 3) + "]}");
        InferenceJob asSystem = valid("{\"requestId\":\"" + ID + "\",\"messages\":[" + message("system", 3) + "]}");

        assertThat(asUser.submittedBy(ALICE).requestDigest())
                .isNotEqualTo(asSystem.submittedBy(ALICE).requestDigest());
    }

    private static String chat(String system, String user) {
        return "{\"messages\":[{\"role\":\"system\",\"content\":\"" + system + "\"},{\"role\":\"user\",\"content\":\""
                + user + "\"}]}";
    }

    private static String message(String role, int chars) {
        return "{\"role\":\"" + role + "\",\"content\":\"" + "x".repeat(chars) + "\"}";
    }
}
