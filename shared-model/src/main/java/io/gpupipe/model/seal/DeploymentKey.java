package io.gpupipe.model.seal;

import io.gpupipe.model.Digests;
import io.gpupipe.model.owner.OwnerIds;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * The deployment key: one random secret per deployment (Secrets Manager in AWS, a file of the local stack's data
 * directory locally) that only the components which send or consume job messages may read. Each use gets its own
 * key, HMAC-SHA256(deployment key, purpose), so one secret serves every use and no use's key reveals another's.
 */
public final class DeploymentKey {
    /** The Secrets Manager secret (ARN or name) holding the key, in AWS (SAM sets it on every component that reads it). */
    public static final String SECRET_ENV = "GPUPIPE_DEPLOYMENT_KEY_SECRET";
    /** A file holding the key (the local stack's), instead of {@link #SECRET_ENV}. */
    public static final String FILE_ENV = "GPUPIPE_DEPLOYMENT_KEY_FILE";
    /** {@link #FILE_ENV} as a configuration key (Quarkus maps the env var onto it; the local AWS test resource's). */
    public static final String FILE_CONFIG = "gpupipe.deployment-key.file";
    /** The shortest key taken: 32 bytes (the text form's UTF-8 bytes), what HMAC-SHA256 needs for full strength. */
    public static final int MIN_BYTES = 32;

    private final byte[] key;

    private DeploymentKey(byte[] key) {
        this.key = key;
    }

    /**
     * The key whose text form is {@code text} (a stored secret's value, surrounding whitespace ignored): its UTF-8
     * bytes, at least {@link #MIN_BYTES} of them.
     */
    public static DeploymentKey of(String text) {
        String trimmed = text == null ? "" : text.strip();
        byte[] bytes = trimmed.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException("a deployment key has at least " + MIN_BYTES + " bytes, got "
                    + bytes.length);
        }
        return new DeploymentKey(bytes);
    }

    /** A new random key's text form: 48 random bytes, base64 (what the local stack stores at first start). */
    public static String generateText() {
        byte[] random = new byte[48];
        new SecureRandom().nextBytes(random);
        return Base64.getEncoder().encodeToString(random);
    }

    /** The key of one use: HMAC-SHA256(this key, the purpose's name). */
    public byte[] derive(KeyPurpose purpose) {
        return Digests.hmacSha256(key, purpose.label().getBytes(StandardCharsets.UTF_8));
    }

    /** Owner ids keyed with this key ({@link KeyPurpose#OWNER_ID}): no one without it computes a caller's owner. */
    public OwnerIds ownerIds() {
        return OwnerIds.keyed(derive(KeyPurpose.OWNER_ID));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeploymentKey other && java.security.MessageDigest.isEqual(key, other.key);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(derive(KeyPurpose.MESSAGE_SEAL));
    }

    @Override
    public String toString() {
        return "DeploymentKey[redacted]";
    }
}
