package io.gpupipe.router;

import io.gpupipe.model.owner.Owner;
import jakarta.enterprise.context.RequestScoped;

/** The owner of the current request's caller, set once by {@link Callers} before any resource method runs. */
@RequestScoped
public class CurrentCaller {
    private Owner owner;

    void set(Owner owner) {
        this.owner = owner;
    }

    /** The caller's owner; every API route is behind {@link Callers}, so a resource method always finds one. */
    public Owner owner() {
        if (owner == null) {
            throw new IllegalStateException("no caller was resolved for this request");
        }
        return owner;
    }
}
