package io.gpupipe.worker.backend;

/** The model (and its version) that produced a result, for traceability. */
public record ModelIdentity(String model, String version) {
}
