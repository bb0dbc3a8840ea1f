package io.gpupipe.model.seal;

import io.gpupipe.model.owner.OwnerIdKeys;
import java.util.Objects;
import java.util.Optional;

/**
 * The deployment key a component read at start: its current version, and its previous one while a rotation is under
 * way (Secrets Manager's {@code AWSCURRENT} and {@code AWSPREVIOUS}). Each use takes what it needs of both.
 */
public record DeploymentKeyVersions(DeploymentKey current, Optional<DeploymentKey> previous) {
    public DeploymentKeyVersions {
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(previous, "previous");
    }

    /** A key never rotated. */
    public static DeploymentKeyVersions of(DeploymentKey current) {
        return new DeploymentKeyVersions(current, Optional.empty());
    }

    /** Seals with the current version; a seal of the previous one still verifies. */
    public MessageSeal seal() {
        return MessageSeal.of(current, previous);
    }

    /**
     * Owner ids of the current version; those of the previous version, and the unkeyed ids when
     * {@code acceptUnkeyed}, still honoured for what callers submitted under them.
     */
    public OwnerIdKeys ownerIds(boolean acceptUnkeyed) {
        return OwnerIdKeys.of(current.ownerIds(), previous.map(DeploymentKey::ownerIds), acceptUnkeyed);
    }
}
