package io.gpupipe.model.owner;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The owner-id derivations a deployment uses: {@code current} for every caller's owner from now on, and the
 * {@code earlier} ones whose ids it still honours when a caller reads, cancels or resubmits what it submitted before
 * (docs/security.md, "Owner ids"): the deployment key's previous version while a rotation is under way, and the unkeyed
 * SHA-256 ids when the deployment was upgraded from them ({@code acceptUnkeyed}).
 */
public record OwnerIdKeys(OwnerIds current, List<OwnerIds> earlier) {
    /** The router's setting that honours callers' unkeyed ids (SAM's {@code AcceptUnkeyedOwnerIds}). */
    public static final String ACCEPT_UNKEYED_ENV = "GPUPIPE_ROUTER_ACCEPT_UNKEYED_OWNER_IDS";

    public OwnerIdKeys {
        Objects.requireNonNull(current, "current");
        earlier = List.copyOf(earlier);
    }

    /** One derivation, nothing earlier honoured. */
    public static OwnerIdKeys only(OwnerIds current) {
        return new OwnerIdKeys(current, List.of());
    }

    /**
     * The current key's ids, then the previous key's (while the key has one), then the unkeyed ids when
     * {@code acceptUnkeyed}.
     */
    public static OwnerIdKeys of(OwnerIds current, Optional<OwnerIds> previous, boolean acceptUnkeyed) {
        List<OwnerIds> earlier = new ArrayList<>(2);
        previous.ifPresent(earlier::add);
        if (acceptUnkeyed) {
            earlier.add(OwnerIds.UNKEYED);
        }
        return new OwnerIdKeys(current, earlier);
    }

    /** The owner ids {@code caller} is known by. */
    public CallerOwners of(CallerIdentity caller) {
        return new CallerOwners(current.of(caller), earlier.stream().map(ids -> ids.of(caller)).toList());
    }
}
