package io.gpupipe.model.notify;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * The HMAC key that signs callbacks, read from the configured callback secret. A secret in the Standard Webhooks form
 * {@code whsec_<base64>} is the base64-decoded bytes; any other secret (the stack's generated one) is its UTF-8 bytes,
 * which a receiver passes to a Standard Webhooks library as {@link #whsec()}. Either way the same secret string keeps
 * signing the deprecated {@code X-Gpupipe-Signature} header ({@link LegacyCallbackSignature}) unchanged.
 */
public final class CallbackKey {
    /** How Standard Webhooks serialises a symmetric secret. */
    public static final String WHSEC_PREFIX = "whsec_";

    private final byte[] bytes;

    private CallbackKey(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * The key of {@code secret}.
     *
     * @throws IllegalArgumentException when the secret is empty, or starts with {@code whsec_} but the rest is not
     *     base64 of at least one byte
     */
    public static CallbackKey of(String secret) {
        Objects.requireNonNull(secret, "secret");
        byte[] bytes;
        if (secret.startsWith(WHSEC_PREFIX)) {
            try {
                bytes = Base64.getDecoder().decode(secret.substring(WHSEC_PREFIX.length()).strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("callback secret starts with " + WHSEC_PREFIX
                        + " but the rest is not base64", e);
            }
        } else {
            bytes = secret.getBytes(StandardCharsets.UTF_8);
        }
        if (bytes.length == 0) {
            throw new IllegalArgumentException("callback secret must not be empty");
        }
        return new CallbackKey(bytes);
    }

    /** The key as a receiver's Standard Webhooks library takes it: {@code whsec_} and the base64 of its bytes. */
    public String whsec() {
        return WHSEC_PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public String toString() {
        return "CallbackKey[***]";
    }
}
