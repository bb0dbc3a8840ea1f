package io.gpupipe.model.cache;

import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.job.Determinism;
import io.gpupipe.model.job.InferenceJob;
import java.util.Optional;

/**
 * Which jobs use the result cache. Only deterministic requests are cacheable ({@link Determinism}). A job that says
 * {@code cache: true} uses it (the parser refuses a non-deterministic one); {@code cache: false} never does; a job
 * that does not say uses it when its tier's {@link TierDefinition#cacheByDefault()} is on and it is deterministic.
 */
public final class CachePolicy {
    private CachePolicy() {
    }

    /** True when the same request always asks for the same output (see the class comment). */
    public static boolean isDeterministic(InferenceJob job) {
        return Determinism.whyNot(job.task(), job.temperature(), job.seed()).isEmpty();
    }

    /** True when {@code job}, on {@code tier}, is looked up in and written to the result cache. */
    public static boolean applies(InferenceJob job, TierDefinition tier) {
        boolean wanted = job.cache() != null ? job.cache() : tier.cacheByDefault();
        return wanted && isDeterministic(job);
    }

    /**
     * The model version a key may be built from: empty when it is unknown (absent or blank). With no known version
     * there is no cache entry and no hit, so a model nobody pinned can never answer for another.
     */
    public static Optional<String> knownVersion(String version) {
        return version == null || version.isBlank() ? Optional.empty() : Optional.of(version);
    }
}
