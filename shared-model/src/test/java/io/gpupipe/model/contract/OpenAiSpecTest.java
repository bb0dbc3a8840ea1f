package io.gpupipe.model.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The judge must judge: clearly wrong bodies fail, right ones pass, and only named deviations are let through. */
class OpenAiSpecTest {
    private final OpenAiSpec spec = OpenAiSpec.get();

    @Test
    void operations_shouldMapToTheComponentSchemas_thatTheWireTestsJudgeAgainst() {
        assertThat(spec.requestSchema("/completions")).isEqualTo("CreateCompletionRequest");
        assertThat(spec.responseSchema("/completions", 200)).isEqualTo("CreateCompletionResponse");
        assertThat(spec.requestSchema("/chat/completions")).isEqualTo("CreateChatCompletionRequest");
        assertThat(spec.responseSchema("/chat/completions", 200)).isEqualTo("CreateChatCompletionResponse");
        assertThat(spec.requestSchema("/audio/speech")).isEqualTo("CreateSpeechRequest");
        assertThat(spec.responseMediaTypes("/audio/speech", 200)).contains("application/octet-stream");
    }

    @Test
    void problems_shouldBeEmpty_forAMinimalValidCompletionRequest() {
        assertThat(spec.problems("CreateCompletionRequest", "{\"model\":\"m\",\"prompt\":\"Once\",\"max_tokens\":4}"))
                .isEmpty();
    }

    @Test
    void problems_shouldNameEachViolation_whenTheBodyIsClearlyWrong() {
        // missing required model, a string for an integer, temperature above OpenAI's 2
        assertThat(spec.problems("CreateCompletionRequest", "{\"prompt\":\"x\",\"max_tokens\":\"ten\","
                + "\"temperature\":3}"))
                .anySatisfy(p -> assertThat(p).contains("model"))
                .anySatisfy(p -> assertThat(p).contains("max_tokens"))
                .anySatisfy(p -> assertThat(p).contains("temperature"));
    }

    @Test
    void problems_shouldRejectAChatMessageOfNoKnownRole_throughTheMessageUnion() {
        assertThat(spec.problems("CreateChatCompletionRequest", "{\"model\":\"m\",\"messages\":"
                + "[{\"role\":\"robot\",\"content\":\"hi\"}]}")).isNotEmpty();
        assertThat(spec.problems("CreateChatCompletionRequest", "{\"model\":\"m\",\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"hi\"}]}")).isEmpty();
    }

    @Test
    void problems_shouldRejectAResponseChoiceWithoutItsRequiredFields() {
        String noLogprobs = "{\"id\":\"c\",\"object\":\"text_completion\",\"created\":1,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"text\":\"t\",\"finish_reason\":\"stop\"}]}";
        assertThat(spec.problems("CreateCompletionResponse", noLogprobs)).anySatisfy(p -> assertThat(p)
                .contains("logprobs"));
        String unknownReason = noLogprobs.replace("\"finish_reason\":\"stop\"",
                "\"finish_reason\":\"abort\",\"logprobs\":null");
        assertThat(spec.problems("CreateCompletionResponse", unknownReason)).anySatisfy(p -> assertThat(p)
                .contains("finish_reason"));
    }

    @Test
    void problems_shouldHonourNullable_asTheDescriptionsAuthorsMeantIt() {
        // max_tokens is "type: integer, nullable: true" in a 3.1 document
        assertThat(spec.problems("CreateCompletionRequest", "{\"model\":\"m\",\"prompt\":\"x\",\"max_tokens\":null}"))
                .isEmpty();
        // user is "type: string" without nullable
        assertThat(spec.problems("CreateCompletionRequest", "{\"model\":\"m\",\"prompt\":\"x\",\"user\":null}"))
                .isNotEmpty();
    }

    @Test
    void problems_shouldNameAnUndeclaredField_untilItIsANamedDeviation() {
        String withPriority = "{\"model\":\"m\",\"prompt\":\"x\",\"priority\":1}";
        assertThat(spec.problems("CreateCompletionRequest", withPriority))
                .singleElement().asString().startsWith("priority: not declared");
        assertThat(spec.problems("CreateCompletionRequest", withPriority,
                Deviation.extension("priority", "test"))).isEmpty();
    }

    @Test
    void problems_shouldJudgeARetypedValueAsNull_andCheckItsType() {
        String vllmError = "{\"error\":{\"message\":\"m\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}}";
        assertThat(spec.problems("ErrorResponse", vllmError)).anySatisfy(p -> assertThat(p).contains("code"));
        assertThat(spec.problems("ErrorResponse", vllmError,
                Deviation.integerForNullableString("error.code", "test"))).isEmpty();
        assertThat(spec.problems("ErrorResponse", vllmError.replace("400", "\"400\""),
                Deviation.integerForNullableString("error.code", "test"))).isNotEmpty();
    }

    @Test
    void problems_shouldNotHideAMissingRequiredField_behindADeviation() {
        String noCode = "{\"error\":{\"message\":\"m\",\"type\":\"t\",\"param\":null}}";
        assertThat(spec.problems("ErrorResponse", noCode, Deviation.integerForNullableString("error.code", "test")))
                .anySatisfy(p -> assertThat(p).contains("code"));
    }
}
