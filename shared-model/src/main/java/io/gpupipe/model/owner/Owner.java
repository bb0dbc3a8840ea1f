package io.gpupipe.model.owner;

import java.util.regex.Pattern;

/**
 * Whose a job or a batch is: an API caller's owner id, derived from its canonical identity ({@link CallerIdentity})
 * by {@link OwnerIds}, so documents, logs and events name a caller without holding its ARN or token subject; or
 * {@link #QUEUE}, the owner of a job sent straight to a tier queue, which no API caller ever is. A caller's owner id is
 * {@value #KEYED_PREFIX} and an HMAC-SHA256 (hex) under the deployment's owner-id key, which no one without the key can
 * compute from an ARN or a subject; or {@value #UNKEYED_PREFIX} and a plain SHA-256 (hex), the form of a deployment
 * without a deployment key and of every owner from before keyed ids.
 */
public record Owner(String value) {
    /** The prefix of an owner id derived with a key ({@link OwnerIds#keyed}). */
    public static final String KEYED_PREFIX = "hmac-sha256:";
    /** The prefix of an owner id derived without one ({@link OwnerIds#UNKEYED}). */
    public static final String UNKEYED_PREFIX = "sha256:";
    private static final String QUEUE_VALUE = "queue";
    private static final Pattern CALLER = Pattern.compile("^(?:hmac-sha256|sha256):[0-9a-f]{64}$");
    /** The owner of a queue message that names none: queue senders are trusted by IAM, not by the API. */
    public static final Owner QUEUE = new Owner(QUEUE_VALUE);

    public Owner {
        if (!isValid(value)) {
            throw new IllegalArgumentException("an owner is hmac-sha256:<64 hex digits>, sha256:<64 hex digits> or"
                    + " queue, got " + value);
        }
    }

    /** True for the forms an owner takes. */
    public static boolean isValid(String value) {
        return value != null && (CALLER.matcher(value).matches() || QUEUE_VALUE.equals(value));
    }

    /** True for an API caller's owner (a hash), false for {@link #QUEUE}. */
    public boolean isCaller() {
        return !QUEUE_VALUE.equals(value);
    }

    /** The hash alone (S3 keys name an owner by it); only a caller has one. */
    public String hex() {
        if (!isCaller()) {
            throw new IllegalStateException("the queue owner has no hash");
        }
        return value.substring(value.indexOf(':') + 1);
    }

    @Override
    public String toString() {
        return value;
    }
}
