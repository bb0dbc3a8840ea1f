package io.gpupipe.cdk.sizing;

import java.util.Objects;

/**
 * What a model needs in GPU memory at serving time: its weights (parameters × bytes per parameter), the KV cache
 * for the longest sequences it may hold at once, and the runtime's overhead (CUDA context, activations,
 * fragmentation: a fixed part plus a fraction of weights and cache).
 *
 * @param kvHiddenSize hidden size × KV heads / attention heads (equal to the hidden size without grouped-query
 *                     attention)
 */
public record ModelFootprint(
        String model,
        long parameters,
        double bytesPerParameter,
        int layers,
        int kvHiddenSize,
        int maxSequenceLength,
        int maxConcurrentSequences,
        double kvBytesPerValue,
        double overheadFraction,
        long fixedOverheadBytes) {

    public ModelFootprint {
        Objects.requireNonNull(model, "model");
        requirePositive(parameters, "parameters");
        requirePositive(bytesPerParameter, "bytesPerParameter");
        requirePositive(layers, "layers");
        requirePositive(kvHiddenSize, "kvHiddenSize");
        requirePositive(maxSequenceLength, "maxSequenceLength");
        requirePositive(maxConcurrentSequences, "maxConcurrentSequences");
        requirePositive(kvBytesPerValue, "kvBytesPerValue");
        if (overheadFraction < 0 || overheadFraction >= 1) {
            throw new IllegalArgumentException("overheadFraction must be in [0, 1), got " + overheadFraction);
        }
        if (fixedOverheadBytes < 0) {
            throw new IllegalArgumentException("fixedOverheadBytes must be >= 0, got " + fixedOverheadBytes);
        }
    }

    public static Builder builder(String model) {
        return new Builder(model);
    }

    private static void requirePositive(double value, String name) {
        if (!(value > 0)) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
    }

    /** Builder; defaults: FP16 KV cache (2 bytes), 10 % overhead plus 512 MiB for the CUDA context. */
    public static final class Builder {
        private final String model;
        private long parameters;
        private double bytesPerParameter;
        private int layers;
        private int kvHiddenSize;
        private int maxSequenceLength;
        private int maxConcurrentSequences = 1;
        private double kvBytesPerValue = 2;
        private double overheadFraction = 0.10;
        private long fixedOverheadBytes = 512L * 1024 * 1024;

        private Builder(String model) {
            this.model = model;
        }

        public Builder parameters(long count) {
            this.parameters = count;
            return this;
        }

        /** 2 for FP16/BF16, 1 for INT8/FP8, 0.5 for INT4 (AWQ, GPTQ). */
        public Builder bytesPerParameter(double bytes) {
            this.bytesPerParameter = bytes;
            return this;
        }

        /** Layers and hidden size; the KV hidden size starts equal to the hidden size. */
        public Builder layers(int count, int hiddenSize) {
            this.layers = count;
            this.kvHiddenSize = hiddenSize;
            return this;
        }

        /** Grouped-query attention: the KV cache holds {@code kvHeads} of {@code attentionHeads} heads. */
        public Builder groupedQueryAttention(int kvHeads, int attentionHeads) {
            if (kvHeads < 1 || attentionHeads < kvHeads || kvHiddenSize % attentionHeads != 0) {
                throw new IllegalArgumentException("need 1 <= kvHeads <= attentionHeads dividing the hidden size, got "
                        + kvHeads + "/" + attentionHeads + " for hidden size " + kvHiddenSize);
            }
            this.kvHiddenSize = kvHiddenSize / attentionHeads * kvHeads;
            return this;
        }

        public Builder maxSequenceLength(int tokens) {
            this.maxSequenceLength = tokens;
            return this;
        }

        public Builder maxConcurrentSequences(int count) {
            this.maxConcurrentSequences = count;
            return this;
        }

        public Builder kvBytesPerValue(double bytes) {
            this.kvBytesPerValue = bytes;
            return this;
        }

        public Builder overhead(double fraction, long fixedBytes) {
            this.overheadFraction = fraction;
            this.fixedOverheadBytes = fixedBytes;
            return this;
        }

        public ModelFootprint build() {
            return new ModelFootprint(model, parameters, bytesPerParameter, layers, kvHiddenSize, maxSequenceLength,
                    maxConcurrentSequences, kvBytesPerValue, overheadFraction, fixedOverheadBytes);
        }
    }
}
