package io.gpupipe.model.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class CallbackSignatureTest {
    private static final String SECRET = "s3cr3t";
    private static final String BODY = "{\"requestId\":\"abc\",\"status\":\"succeeded\"}";
    private static final long TS = 1_796_000_000L;
    private static final Instant NOW = Instant.ofEpochSecond(TS + 30);

    @Test
    void sign_shouldBeHmacSha256OfTimestampDotBody_whenComputedIndependently() throws Exception {
        // given: what a receiver in any language computes
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = "sha256=" + HexFormat.of().formatHex(
                mac.doFinal((TS + "." + BODY).getBytes(StandardCharsets.UTF_8)));

        // when, then
        assertThat(CallbackSignature.sign(SECRET, TS, BODY)).isEqualTo(expected).matches("sha256=[0-9a-f]{64}");
    }

    @Test
    void verify_shouldAccept_whenSignatureAndTimestampMatch() {
        String header = CallbackSignature.sign(SECRET, TS, BODY);

        assertThat(CallbackSignature.verify(SECRET, header, Long.toString(TS), BODY, NOW,
                CallbackSignature.DEFAULT_TOLERANCE)).isTrue();
    }

    @Test
    void verify_shouldReject_whenBodyTimestampOrSecretDiffer() {
        String header = CallbackSignature.sign(SECRET, TS, BODY);
        Duration tolerance = CallbackSignature.DEFAULT_TOLERANCE;

        assertThat(CallbackSignature.verify(SECRET, header, Long.toString(TS), BODY + " ", NOW, tolerance)).isFalse();
        assertThat(CallbackSignature.verify(SECRET, header, Long.toString(TS + 1), BODY, NOW, tolerance)).isFalse();
        assertThat(CallbackSignature.verify("other", header, Long.toString(TS), BODY, NOW, tolerance)).isFalse();
        assertThat(CallbackSignature.verify(SECRET, header, "yesterday", BODY, NOW, tolerance)).isFalse();
        assertThat(CallbackSignature.verify(SECRET, null, Long.toString(TS), BODY, NOW, tolerance)).isFalse();
    }

    @Test
    void verify_shouldReject_whenReplayedAfterTolerance() {
        // given: a captured request replayed ten minutes later, unchanged
        String header = CallbackSignature.sign(SECRET, TS, BODY);
        Instant later = Instant.ofEpochSecond(TS).plus(Duration.ofMinutes(10));

        // when, then
        assertThat(CallbackSignature.verify(SECRET, header, Long.toString(TS), BODY, later,
                CallbackSignature.DEFAULT_TOLERANCE)).isFalse();
    }

    @Test
    void sign_shouldRefuse_whenSecretEmpty() {
        assertThatThrownBy(() -> CallbackSignature.sign("", TS, BODY)).isInstanceOf(IllegalArgumentException.class);
    }
}
