package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ErrorCodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ModelFailureTest {

    @Test
    void httpStatus_shouldBeRetryableModelError_whenServerError() {
        // when
        var failure = ModelFailure.httpStatus(500, "{\"message\":\"engine step failed\"}");
        // then
        assertThat(failure.code()).isEqualTo(ErrorCodes.MODEL_ERROR);
        assertThat(failure.retryable()).isTrue();
        assertThat(failure.message()).contains("HTTP 500").contains("engine step failed");
    }

    @Test
    void httpStatus_shouldBeRetryable_whenOverloadedOrTimedOut() {
        assertThat(ModelFailure.httpStatus(429, "").retryable()).isTrue();
        assertThat(ModelFailure.httpStatus(408, null).retryable()).isTrue();
    }

    @Test
    void httpStatus_shouldBeRetryableUnavailable_when503() {
        var failure = ModelFailure.httpStatus(503, "loading");
        assertThat(failure.code()).isEqualTo(ErrorCodes.MODEL_UNAVAILABLE);
        assertThat(failure.retryable()).isTrue();
    }

    @Test
    void httpStatus_shouldBePermanent_whenServerRejectsTheRequest() {
        var failure = ModelFailure.httpStatus(400, "{\"error\":{\"message\":\"Invalid voice 'alloy'.\"}}");
        assertThat(failure.code()).isEqualTo(ErrorCodes.MODEL_ERROR);
        assertThat(failure.retryable()).isFalse();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {
        "'max_tokens' or 'max_completion_tokens' is too large: 2048. This model's maximum context length is 4096 "
            + "tokens and your request has 3000 input tokens (2048 > 4096 - 3000).",
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens in the messages",
        "The decoder prompt (length 5000) is longer than the maximum model length of 4096."})
    void httpStatus_shouldBePromptTooLongNeverRetried_whenVllmRejectsTheContextLength(String message) {
        var failure = ModelFailure.httpStatus(400, "{\"error\":{\"message\":\"" + message + "\"}}");
        assertThat(failure.code()).isEqualTo(ErrorCodes.PROMPT_TOO_LONG);
        assertThat(failure.retryable()).isFalse();
    }

    @Test
    void httpStatus_shouldAbbreviateLongBodies() {
        var failure = ModelFailure.httpStatus(500, "x".repeat(5000));
        assertThat(failure.message().length()).isLessThan(400);
    }

    @Test
    void unreachableAndTimeout_shouldBeRetryable_withTheirCodes() {
        assertThat(ModelFailure.unreachable("Connection refused").code()).isEqualTo(ErrorCodes.MODEL_UNAVAILABLE);
        assertThat(ModelFailure.unreachable("Connection refused").retryable()).isTrue();
        var timeout = ModelFailure.timeout(Duration.ofSeconds(300));
        assertThat(timeout.code()).isEqualTo(ErrorCodes.MODEL_TIMEOUT);
        assertThat(timeout.message()).contains("300000 ms");
    }

    @Test
    void notConfigured_shouldBePermanentUnavailable() {
        var failure = ModelFailure.notConfigured("no text model");
        assertThat(failure.code()).isEqualTo(ErrorCodes.MODEL_UNAVAILABLE);
        assertThat(failure.retryable()).isFalse();
    }
}
