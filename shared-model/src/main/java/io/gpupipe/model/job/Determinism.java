package io.gpupipe.model.job;

import io.gpupipe.model.Task;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a request always asks for the same output: a text job with temperature 0 (greedy decoding) or an explicit
 * {@code seed}; a speech job always, since the speech API takes no sampling parameters (the same text, voice,
 * language, speed and instructions ask for the same audio); an embedding job always (a pooling model has no
 * sampling). The parser refuses {@code cache: true} on a request that is not, and the result cache
 * ({@code io.gpupipe.model.cache.CachePolicy}) caches only those that are.
 */
public final class Determinism {
    private Determinism() {
    }

    /** Why a job of {@code task} with these sampling parameters is not deterministic; empty when it is. */
    public static Optional<String> whyNot(Task task, double temperature, Integer seed) {
        return switch (task) {
            case GENERATE -> temperature == 0 || seed != null ? Optional.empty()
                    : Optional.of(String.format(Locale.ROOT, "temperature %s and no seed", temperature));
            case SPEECH, EMBED -> Optional.empty();
        };
    }
}
