package io.gpupipe.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.job.InferenceJob;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class DigestsTest {

    @Test
    void hmacSha256_shouldMatchRfc4231_testCase2() {
        // RFC 4231, 4.3: key "Jefe", data "what do ya want for nothing?"
        assertThat(Digests.hmacSha256Hex("Jefe".getBytes(StandardCharsets.UTF_8), "what do ya want for nothing?"))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    @Test
    void sha256Hex_shouldTellALoneSurrogateFromTheReplacementJavasUtf8EncoderWrites() {
        // String.getBytes(UTF_8) writes '?' for an unpaired surrogate, so two different texts had one digest
        assertThat(Digests.sha256Hex("Say \ud800")).isNotEqualTo(Digests.sha256Hex("Say ?"));
        assertThat(Digests.sha256Hex("\udc34x")).isNotEqualTo(Digests.sha256Hex("?x"));
        assertThat(Digests.sha256Hex("\ud800")).isNotEqualTo(Digests.sha256Hex("\udbff"));
    }

    @Test
    void sha256Hex_shouldBeTheDigestOfTheUtf8Bytes_whenTheTextIsWellFormed() throws Exception {
        // well-formed text keeps the digest it always had (stored cache keys and marker digests stay valid)
        String text = "Once upon a time \u00e9 \u4e16 \ud83d\ude00 \uffff";
        byte[] expected = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        assertThat(Digests.sha256Hex(text)).isEqualTo(HexFormat.of().formatHex(expected));
    }

    @Test
    void cacheKey_shouldDiffer_whenPromptsDifferOnlyByALoneSurrogateAndAQuestionMark() {
        InferenceJob lone = job("Say \ud800");
        InferenceJob question = job("Say ?");
        assertThat(CacheKey.of("v1", lone)).isNotEqualTo(CacheKey.of("v1", question));
        assertThat(lone.requestDigest()).isNotEqualTo(question.requestDigest());
    }

    private static InferenceJob job(String prompt) {
        return new InferenceJob("5f0e2c8a-3b1d-4e6f-9a7c-2d4b6e8f0a1c", Task.SPEECH, prompt, 256, 0.7, 1.0, null,
                null, null, null, null, null);
    }

    @Test
    void sha256Hex_shouldEncodeALoneSurrogateAsItsThreeWtf8Bytes() throws Exception {
        // "a" + U+D800 + "b": 61 ED A0 80 62 (WTF-8)
        byte[] expected = MessageDigest.getInstance("SHA-256").digest(new byte[] {0x61, (byte) 0xED, (byte) 0xA0,
                (byte) 0x80, 0x62});
        assertThat(Digests.sha256Hex("a\ud800b")).isEqualTo(HexFormat.of().formatHex(expected));
    }
}
