package io.gpupipe.model.owner;

import io.gpupipe.model.Digests;

/**
 * How an API caller's identity becomes its {@link Owner}: HMAC-SHA256 of its canonical identity under the
 * deployment's owner-id key ({@link io.gpupipe.model.seal.DeploymentKey#ownerIds}), so knowing a caller's ARN or
 * token subject is not enough to compute its owner, nor the ids its jobs are stored under ({@link JobIds}); or,
 * without a key, the plain SHA-256 ({@link #UNKEYED}: a deployment with no deployment key, and every owner id from
 * before keyed ids).
 */
public final class OwnerIds {
    /** Owner ids anyone can compute from a caller's identity: a deployment without a key. */
    public static final OwnerIds UNKEYED = new OwnerIds(null);
    private static final int MIN_KEY_BYTES = 32;

    private final byte[] key;

    private OwnerIds(byte[] key) {
        this.key = key;
    }

    /** Owner ids keyed with {@code key} (at least 32 bytes: a key derived for {@code OWNER_ID}). */
    public static OwnerIds keyed(byte[] key) {
        if (key == null || key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("an owner-id key has at least " + MIN_KEY_BYTES + " bytes");
        }
        return new OwnerIds(key.clone());
    }

    /** The owner of everything {@code caller} submits. */
    public Owner of(CallerIdentity caller) {
        String canonical = caller.canonical();
        return key == null ? new Owner(Owner.UNKEYED_PREFIX + Digests.sha256Hex(canonical))
                : new Owner(Owner.KEYED_PREFIX + Digests.hmacSha256Hex(key, canonical));
    }

    /** True when these ids need a key to compute. */
    public boolean isKeyed() {
        return key != null;
    }

    @Override
    public String toString() {
        return key == null ? "OwnerIds[unkeyed]" : "OwnerIds[keyed, redacted]";
    }
}
