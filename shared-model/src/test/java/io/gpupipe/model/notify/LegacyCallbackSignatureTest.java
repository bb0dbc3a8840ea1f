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

class LegacyCallbackSignatureTest {
    private static final String SECRET = "s3cr3t";
    private static final String BODY = "{\"requestId\":\"abc\",\"status\":\"succeeded\"}";
    private static final long TS = 1_796_000_000L;
    private static final Instant NOW = Instant.ofEpochSecond(TS + 30);

    @Test
    void sign_shouldBeHmacSha256OfTimestampDotBody_whenComputedIndependently() throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = "sha256=" + HexFormat.of().formatHex(
                mac.doFinal((TS + "." + BODY).getBytes(StandardCharsets.UTF_8)));

        assertThat(LegacyCallbackSignature.sign(SECRET, TS, BODY)).isEqualTo(expected).matches("sha256=[0-9a-f]{64}");
    }

    @Test
    void verify_shouldAcceptAMatch_andRejectTamperingOrReplay() {
        String header = LegacyCallbackSignature.sign(SECRET, TS, BODY);
        Duration tolerance = CallbackSignature.DEFAULT_TOLERANCE;

        assertThat(LegacyCallbackSignature.verify(SECRET, header, Long.toString(TS), BODY, NOW, tolerance)).isTrue();
        assertThat(LegacyCallbackSignature.verify(SECRET, header, Long.toString(TS), BODY + " ", NOW, tolerance))
                .isFalse();
        assertThat(LegacyCallbackSignature.verify("other", header, Long.toString(TS), BODY, NOW, tolerance)).isFalse();
        assertThat(LegacyCallbackSignature.verify(SECRET, header, Long.toString(TS), BODY,
                NOW.plus(Duration.ofMinutes(10)), tolerance)).isFalse();
    }

    @Test
    void sign_shouldRefuse_whenSecretEmpty() {
        assertThatThrownBy(() -> LegacyCallbackSignature.sign("", TS, BODY))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
