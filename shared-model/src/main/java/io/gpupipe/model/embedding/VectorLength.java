package io.gpupipe.model.embedding;

import java.util.Optional;

/**
 * The one rule for an embedding job's {@code dimensions}: a vector is shortened by keeping its first
 * {@code dimensions} values and scaling them back to unit length (L2), as OpenAI's text-embedding-3 models and vLLM's
 * Matryoshka support do. Meaningful for models trained for it (Matryoshka representation learning); for others the
 * shorter vector still works but retrieves worse. A longer vector than the model's own cannot be made.
 */
public final class VectorLength {
    private VectorLength() {
    }

    /** Why {@code dimensions} cannot be served by a model of {@code nativeDimensions}; empty when it can. */
    public static Optional<String> refusal(Integer dimensions, int nativeDimensions) {
        if (dimensions == null || dimensions <= nativeDimensions) {
            return Optional.empty();
        }
        return Optional.of("dimensions must be at most " + nativeDimensions + ", the length of this model's vectors; "
                + "got " + dimensions);
    }

    /**
     * {@code vector} at {@code dimensions} values: itself when null or the vector's own length, else its first
     * {@code dimensions} values scaled to unit length.
     */
    public static float[] reduce(float[] vector, Integer dimensions) {
        if (dimensions == null || dimensions == vector.length) {
            return vector;
        }
        if (dimensions > vector.length || dimensions < 1) {
            throw new IllegalArgumentException(refusal(dimensions, vector.length).orElse("dimensions must be >= 1"));
        }
        double sumOfSquares = 0;
        for (int i = 0; i < dimensions; i++) {
            sumOfSquares += (double) vector[i] * vector[i];
        }
        double norm = Math.sqrt(sumOfSquares);
        float[] reduced = new float[dimensions];
        for (int i = 0; i < dimensions; i++) {
            reduced[i] = norm == 0 ? 0f : (float) (vector[i] / norm);
        }
        return reduced;
    }
}
