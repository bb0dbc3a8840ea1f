package io.gpupipe.cdk.sizing;

/** Whether a model fits the GPU memory a tier asks for. Both outcomes carry a readable explanation. */
public sealed interface SizingVerdict {
    VramEstimate estimate();

    long availableBytes();

    String message();

    /** The model fits; {@code message} states the headroom. */
    record Fits(VramEstimate estimate, long availableBytes, String message) implements SizingVerdict {
    }

    /** The model does not fit; {@code message} states by how much and what to change. */
    record TooLarge(VramEstimate estimate, long availableBytes, String message) implements SizingVerdict {
    }
}
