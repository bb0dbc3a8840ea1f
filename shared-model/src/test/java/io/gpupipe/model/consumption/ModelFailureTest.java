package io.gpupipe.model.consumption;

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
        var failure = ModelFailure.httpStatus(400, "maximum context length is 2048 tokens");
        assertThat(failure.code()).isEqualTo(ErrorCodes.MODEL_ERROR);
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
