package io.gpupipe.model.owner;

import io.gpupipe.model.Digests;
import java.util.regex.Pattern;

/**
 * Whose a job or a batch is: {@code sha256:} and the SHA-256 (hex) of the caller's canonical identity
 * ({@link CallerIdentity}), so documents, logs and events name a caller without holding its ARN or token subject; or
 * {@link #QUEUE}, the owner of a job sent straight to a tier queue without one, which no API caller ever is.
 */
public record Owner(String value) {
    public static final String HASH_PREFIX = "sha256:";
    private static final String QUEUE_VALUE = "queue";
    private static final Pattern HASHED = Pattern.compile("^sha256:[0-9a-f]{64}$");
    /** The owner of a queue message that names none: queue senders are trusted by IAM, not by the API. */
    public static final Owner QUEUE = new Owner(QUEUE_VALUE);

    public Owner {
        if (!isValid(value)) {
            throw new IllegalArgumentException("an owner is sha256:<64 hex digits> or queue, got " + value);
        }
    }

    /** True for the two forms an owner takes. */
    public static boolean isValid(String value) {
        return value != null && (HASHED.matcher(value).matches() || QUEUE_VALUE.equals(value));
    }

    /** The owner of a caller whose canonical identity is {@code canonical}. */
    static Owner ofCanonical(String canonical) {
        return new Owner(HASH_PREFIX + Digests.sha256Hex(canonical));
    }

    /** True for an API caller's owner (a hash), false for {@link #QUEUE}. */
    public boolean isCaller() {
        return value.startsWith(HASH_PREFIX);
    }

    /** The hash alone (S3 keys name an owner by it); only a caller has one. */
    public String hex() {
        if (!isCaller()) {
            throw new IllegalStateException("the queue owner has no hash");
        }
        return value.substring(HASH_PREFIX.length());
    }

    @Override
    public String toString() {
        return value;
    }
}
