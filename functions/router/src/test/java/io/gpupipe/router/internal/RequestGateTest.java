package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.router.ApiErrorCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestGateTest {
    private final RequestGate gate = new RequestGate(1000);

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "application/json; charset=utf-8", " Application/JSON ;charset=UTF-8",
        "application/problem+json", "application/vnd.gpupipe.v1+json"})
    void check_shouldAdmit_whenContentTypeIsJson(String contentType) {
        assertThat(gate.check(contentType, 10)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "text/json", "application/x-www-form-urlencoded", "application/jsonp",
        "application/xml", "json", "multipart/form-data; boundary=--x", "application/json-seq"})
    void check_shouldRefuseWith415_whenContentTypeIsNotJson(String contentType) {
        RequestGate.Refusal refusal = gate.check(contentType, 10).orElseThrow();
        assertThat(refusal.status()).isEqualTo(415);
        assertThat(refusal.error().field()).isEqualTo("Content-Type");
        assertThat(refusal.error().code()).isEqualTo(ApiErrorCodes.UNSUPPORTED_MEDIA_TYPE);
        assertThat(refusal.error().message()).contains(contentType.strip());
    }

    @Test
    void check_shouldAdmit_whenContentTypeIsAbsent() {
        assertThat(gate.check(null, 10)).isEmpty();
        assertThat(gate.check(" ", 10)).isEmpty();
    }

    @Test
    void check_shouldAdmit_whenBodyIsExactlyAtTheLimit() {
        assertThat(gate.check("application/json", 1000)).isEmpty();
    }

    @Test
    void check_shouldRefuseWith413_whenBodyIsOneByteOverTheLimit() {
        RequestGate.Refusal refusal = gate.check("application/json", 1001).orElseThrow();
        assertThat(refusal.status()).isEqualTo(413);
        assertThat(refusal.error().field()).isEqualTo("body");
        assertThat(refusal.error().code()).isEqualTo(ApiErrorCodes.PAYLOAD_TOO_LARGE);
        assertThat(refusal.error().message()).contains("1000").contains("1001");
    }

    @Test
    void check_shouldReport415First_whenBodyIsBothTooLargeAndNotJson() {
        assertThat(gate.check("text/plain", 5000).orElseThrow().status()).isEqualTo(415);
    }
}
