package io.gpupipe.model.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class CallbackSignatureTest {
    private static final String SECRET = "generated-by-secrets-manager-0123456789";
    private static final CallbackKey KEY = CallbackKey.of(SECRET);
    private static final String ID = "msg_0123456789abcdef0123456789abcdef";
    private static final String BODY = "{\"requestId\":\"abc\",\"status\":\"succeeded\"}";
    private static final long TS = 1_796_000_000L;
    private static final Instant NOW = Instant.ofEpochSecond(TS + 30);
    private static final Duration TOLERANCE = CallbackSignature.DEFAULT_TOLERANCE;

    @Test
    void sign_shouldBeV1AndBase64HmacOfIdTimestampBody_whenComputedIndependently() throws Exception {
        // given: what a receiver in any language computes from the whsec_ form it was given
        byte[] key = Base64.getDecoder().decode(KEY.whsec().substring("whsec_".length()));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        String expected = "v1," + Base64.getEncoder().encodeToString(
                mac.doFinal((ID + "." + TS + "." + BODY).getBytes(StandardCharsets.UTF_8)));

        // when, then
        assertThat(CallbackSignature.sign(KEY, ID, TS, BODY)).isEqualTo(expected);
    }

    @Test
    void verify_shouldAccept_whenOneOfSeveralSignaturesMatches() {
        String ours = CallbackSignature.sign(KEY, ID, TS, BODY);
        String other = CallbackSignature.sign(CallbackKey.of("a-retired-key-of-24-bytes!"), ID, TS, BODY);

        assertThat(CallbackSignature.verify(KEY, ID, Long.toString(TS), ours, BODY, NOW, TOLERANCE)).isTrue();
        assertThat(CallbackSignature.verify(KEY, ID, Long.toString(TS), other + " " + ours, BODY, NOW, TOLERANCE))
                .isTrue();
        assertThat(CallbackSignature.verify(KEY, ID, Long.toString(TS), "v1a,AAAA " + ours, BODY, NOW, TOLERANCE))
                .isTrue();
    }

    @Test
    void verify_shouldReject_whenBodyIdTimestampOrKeyDiffer() {
        String header = CallbackSignature.sign(KEY, ID, TS, BODY);
        String ts = Long.toString(TS);

        assertThat(CallbackSignature.verify(KEY, ID, ts, header, BODY + " ", NOW, TOLERANCE)).isFalse();
        assertThat(CallbackSignature.verify(KEY, ID + "x", ts, header, BODY, NOW, TOLERANCE)).isFalse();
        assertThat(CallbackSignature.verify(KEY, ID, Long.toString(TS + 1), header, BODY, NOW, TOLERANCE)).isFalse();
        assertThat(CallbackSignature.verify(CallbackKey.of("other-secret-of-some-length"), ID, ts, header, BODY, NOW,
                TOLERANCE)).isFalse();
        assertThat(CallbackSignature.verify(KEY, ID, "yesterday", header, BODY, NOW, TOLERANCE)).isFalse();
        assertThat(CallbackSignature.verify(KEY, null, ts, header, BODY, NOW, TOLERANCE)).isFalse();
        assertThat(CallbackSignature.verify(KEY, ID, ts, null, BODY, NOW, TOLERANCE)).isFalse();
    }

    @Test
    void verify_shouldReject_whenReplayedAfterTolerance() {
        // given: a captured request replayed ten minutes later, unchanged
        String header = CallbackSignature.sign(KEY, ID, TS, BODY);
        Instant later = Instant.ofEpochSecond(TS).plus(Duration.ofMinutes(10));

        // when, then
        assertThat(CallbackSignature.verify(KEY, ID, Long.toString(TS), header, BODY, later, TOLERANCE)).isFalse();
    }

    @Test
    void messageId_shouldBeStablePerDocumentAndDifferAcrossDocuments() {
        String id = CallbackSignature.messageId("bucket", "550e8400-e29b-41d4-a716-446655440000");

        assertThat(id).matches("msg_[0-9a-f]{32}")
                .isEqualTo(CallbackSignature.messageId("bucket", "550e8400-e29b-41d4-a716-446655440000"))
                .isNotEqualTo(CallbackSignature.messageId("bucket", "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"))
                .isNotEqualTo(CallbackSignature.messageId("other", "550e8400-e29b-41d4-a716-446655440000"));
        assertThat(CallbackSignature.messageId("bucket", "a.b/c")).doesNotContain(".");
    }
}
