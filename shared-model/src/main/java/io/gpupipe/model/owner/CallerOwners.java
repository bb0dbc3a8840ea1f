package io.gpupipe.model.owner;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The owner ids one API caller is known by: {@code current}, which owns everything it submits now, and the
 * {@code earlier} ones a deployment still honours for what the caller submitted before ({@link OwnerIdKeys}): its id
 * under the deployment key's previous version during a rotation, and its unkeyed id after an upgrade to keyed ids.
 * None of them is another caller's: each is derived from this caller's own identity.
 */
public record CallerOwners(Owner current, List<Owner> earlier) {
    public CallerOwners {
        Objects.requireNonNull(current, "current");
        earlier = earlier.stream().filter(o -> !o.equals(current)).distinct().toList();
    }

    /** A caller known by one owner id only. */
    public static CallerOwners only(Owner current) {
        return new CallerOwners(current, List.of());
    }

    /** The current owner id first, then the earlier ones. */
    public List<Owner> all() {
        List<Owner> all = new ArrayList<>(earlier.size() + 1);
        all.add(current);
        all.addAll(earlier);
        return List.copyOf(all);
    }

    /** True when {@code owner} is one of this caller's ids. */
    public boolean includes(Owner owner) {
        return current.equals(owner) || earlier.contains(owner);
    }
}
