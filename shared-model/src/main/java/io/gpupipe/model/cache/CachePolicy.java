package io.gpupipe.model.cache;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.Task;
import io.gpupipe.model.TierDefinition;
import java.util.Locale;
import java.util.Optional;

/**
 * Which jobs use the result cache. Only deterministic requests are cacheable: a text job with temperature 0 (greedy
 * decoding) or an explicit {@code seed}; a speech job always, since the speech API takes no sampling parameters (the
 * same text, voice, language, speed and instructions ask for the same audio); an embedding job always (a pooling
 * model has no sampling). A job that says {@code cache: true}
 * uses it (the parser refuses a non-deterministic one); {@code cache: false} never does; a job that does not say
 * uses it when its tier's {@link TierDefinition#cacheByDefault()} is on and it is deterministic.
 */
public final class CachePolicy {
    private CachePolicy() {
    }

    /** Why a job of {@code task} with these sampling parameters is not deterministic; empty when it is. */
    public static Optional<String> nonDeterminism(Task task, double temperature, Integer seed) {
        return switch (task) {
            case GENERATE -> temperature == 0 || seed != null ? Optional.empty()
                    : Optional.of(String.format(Locale.ROOT, "temperature %s and no seed", temperature));
            case SPEECH, EMBED -> Optional.empty();
        };
    }

    /** True when the same request always asks for the same output (see the class comment). */
    public static boolean isDeterministic(InferenceJob job) {
        return nonDeterminism(job.task(), job.temperature(), job.seed()).isEmpty();
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
