package io.gpupipe.worker.backend;

import java.util.Optional;

/**
 * The model (and its version) that produced a result, for traceability. {@code pinned} when the version really
 * identifies the weights: configured by the deployment (CDK sets the pinned commit, which the worker verified
 * against the server's model root) or derived from them (a GGUF file's digest, a library version), never a guess
 * such as a model name. Only a pinned version keys result cache entries.
 */
public record ModelIdentity(String model, String version, boolean pinned) {

    /** An identity whose version is not pinned (results still name it; the cache never uses it). */
    public ModelIdentity(String model, String version) {
        this(model, version, false);
    }

    /** An identity whose version identifies the weights. */
    public static ModelIdentity pinned(String model, String version) {
        return new ModelIdentity(model, version, true);
    }

    /** The version cache entries may be keyed by: present only when pinned. */
    public Optional<String> cacheVersion() {
        return pinned && version != null && !version.isBlank() ? Optional.of(version) : Optional.empty();
    }
}
