package io.gpupipe.router;

import io.gpupipe.model.owner.CallerOwners;
import io.gpupipe.model.owner.Owner;
import jakarta.enterprise.context.RequestScoped;

/**
 * The owner ids of the current request's caller, set once by {@link Callers} before any resource method runs: the
 * current one, which owns what it submits now, and the earlier ones it is still known by ({@link CallerOwners}).
 */
@RequestScoped
public class CurrentCaller {
    private CallerOwners owners;

    void set(CallerOwners owners) {
        this.owners = owners;
    }

    /** The caller's owner ids; every API route is behind {@link Callers}, so a resource method always finds them. */
    public CallerOwners owners() {
        if (owners == null) {
            throw new IllegalStateException("no caller was resolved for this request");
        }
        return owners;
    }

    /** The caller's current owner id. */
    public Owner owner() {
        return owners().current();
    }
}
