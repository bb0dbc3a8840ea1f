package io.gpupipe.worker.backend;

import io.gpupipe.worker.consumption.ModelFailure;

/** A failed call to the model, classified (code, retryable) by {@link ModelFailure}. */
public class ModelException extends RuntimeException {
    private final transient ModelFailure failure;

    public ModelException(ModelFailure failure) {
        super(failure.message());
        this.failure = failure;
    }

    public ModelException(ModelFailure failure, Throwable cause) {
        super(failure.message(), cause);
        this.failure = failure;
    }

    public ModelFailure failure() {
        return failure;
    }
}
