package io.gpupipe.worker.backend;

import java.util.List;

/**
 * The model's vectors of an embedding job's inputs, in input order and at the model's own length, and the input
 * tokens counted (the server's {@code usage.prompt_tokens}).
 */
public record Embeddings(List<float[]> vectors, int promptTokens) {
    public Embeddings {
        vectors = List.copyOf(vectors);
    }

    /** The model's vector length (every vector has it). */
    public int nativeDimensions() {
        return vectors.isEmpty() ? 0 : vectors.get(0).length;
    }
}
