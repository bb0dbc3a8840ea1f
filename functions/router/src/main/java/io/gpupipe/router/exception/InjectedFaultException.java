package io.gpupipe.router.exception;

/** Thrown only by the chaos soak's fault-injection hook; deliberately mapped to nothing but the generic 500. */
public class InjectedFaultException extends RuntimeException {
    public InjectedFaultException(String message) {
        super(message);
    }
}
