package io.gpupipe.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobMessageTest {
    private static final String ID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";

    @ParameterizedTest
    @ValueSource(strings = {"\uFFFF", "\uFFFE", "\uD800", "\uDC00", "x\uDE00\uD83Dx", "\uD83D\uDE00\uD800"})
    void inline_shouldCarryThePromptIntactInQueueSafeText_whenPromptHasCharactersSqsRefuses(String prompt) {
        // given
        InferenceJob job = job(prompt);

        // when
        String body = JobMessage.inline(job);

        // then
        assertThat(JobMessage.isQueueSafe(body)).isTrue();
        assertThat(JobJson.read(body, InferenceJob.class).prompt()).isEqualTo(prompt);
    }

    @Test
    void queueSafe_shouldLeaveTextUntouched_whenEveryCharacterIsAllowed() {
        String text = "{\"prompt\":\"a\\n\u00e9\u6F22\uD83D\uDE00\uFFFD\uE000\"}";
        assertThat(JobMessage.queueSafe(text)).isSameAs(text);
    }

    @Test
    void queueSafe_shouldEscapeOnlyTheRefusedCharacters() {
        assertThat(JobMessage.queueSafe("a\uFFFFb\uD83D\uDE00c\uDC00")).isEqualTo("a\\uffffb\uD83D\uDE00c\\udc00");
    }

    @Test
    void fitsInline_shouldCountUtf8BytesAndTheAttributeAllowance() {
        String limit = "x".repeat(JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES - JobMessage.ATTRIBUTE_ALLOWANCE_BYTES);
        assertThat(JobMessage.fitsInline(limit, JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES)).isTrue();
        assertThat(JobMessage.fitsInline(limit + "x", JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES)).isFalse();
        assertThat(JobMessage.fitsInline("\u00e9".repeat(limit.length() / 2 + 1),
                JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES)).isFalse();
    }

    @Test
    void payloadKey_shouldReadThePointer_whenMessageIsAClaimCheck() {
        assertThat(JobMessage.payloadKey(JobMessage.pointer(ID))).contains("payloads/" + ID + ".json");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"requestId\":\"" + ID + "\",\"prompt\":\"x\",\"payloadKey\":\"payloads/" + ID + ".json\"}",
        "{\"requestId\":\"" + ID + "\",\"messages\":[],\"payloadKey\":\"payloads/" + ID + ".json\"}",
        "{\"requestId\":\"" + ID + "\",\"payloadKey\":\"results/" + ID + ".json\"}",
        "{\"requestId\":\"" + ID + "\",\"payloadKey\":\"payloads/6f1c2a3b-4d5e-4f60-8a7b-000000000000.json\"}",
        "{\"requestId\":\"nope\",\"payloadKey\":\"payloads/nope.json\"}",
        "{\"payloadKey\":\"payloads/" + ID + ".json\"}",
        "{\"payloadKey\":",
        "[\"payloadKey\"]"})
    void payloadKey_shouldBeEmpty_whenMessageIsNotAPointerToItsOwnPayload(String body) {
        assertThat(JobMessage.payloadKey(body)).isEmpty();
    }

    private static InferenceJob job(String prompt) {
        return new InferenceJob(UUID.randomUUID().toString(), Task.GENERATE, prompt, 16, 0.7, 1.0, null, null, null,
                null, null, null);
    }
}
