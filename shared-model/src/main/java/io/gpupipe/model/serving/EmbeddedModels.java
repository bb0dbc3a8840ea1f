package io.gpupipe.model.serving;

import io.gpupipe.model.Digests;
import java.io.IOException;
import java.io.InputStream;

/**
 * The model versions the worker's {@code embedded} backend claims (the local stack's models), defined once: the
 * worker records them in results and keys cache entries by them, and the local stack hands the same values to the
 * router so that its cache look-ups find those entries.
 */
public final class EmbeddedModels {
    /** The speech model: the FreeTTS library (its Kevin voices are part of the jar). */
    public static final String FREETTS_VERSION = "freetts-1.2.2";
    private static final int GGUF_DIGEST_CHARS = 12;

    private EmbeddedModels() {
    }

    /** A text model's version: {@code sha256:} and the first 12 hex digits of its GGUF file's SHA-256. */
    public static String ggufVersion(InputStream gguf) throws IOException {
        return "sha256:" + Digests.sha256Hex(gguf).substring(0, GGUF_DIGEST_CHARS);
    }
}
