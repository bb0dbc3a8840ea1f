package io.gpupipe.model.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class CallbackKeyTest {

    @Test
    void of_shouldUseTheUtf8Bytes_whenSecretIsAPlainString() {
        // given: the stack's generated secret (48 letters and digits)
        String secret = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl";

        // when
        String whsec = CallbackKey.of(secret).whsec();

        // then: what `printf %s "$SECRET" | base64` gives a receiver
        assertThat(whsec).isEqualTo("whsec_" + Base64.getEncoder().encodeToString(
                secret.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void of_shouldDecodeTheBase64_whenSecretIsInWhsecForm() {
        byte[] raw = {0, 1, 2, (byte) 0xfe, (byte) 0xff, 42, 7, 9, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53,
            59, 61, 67, 71};
        String whsec = "whsec_" + Base64.getEncoder().encodeToString(raw);

        CallbackKey key = CallbackKey.of(whsec);

        assertThat(key.bytes()).isEqualTo(raw);
        assertThat(key.whsec()).isEqualTo(whsec);
    }

    @Test
    void of_shouldRefuse_whenEmptyOrNotBase64AfterThePrefix() {
        assertThatThrownBy(() -> CallbackKey.of("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CallbackKey.of("whsec_")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CallbackKey.of("whsec_not base64!")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("base64");
    }

    @Test
    void toString_shouldNotShowTheKey() {
        assertThat(CallbackKey.of("s3cr3t-value")).hasToString("CallbackKey[***]");
    }
}
