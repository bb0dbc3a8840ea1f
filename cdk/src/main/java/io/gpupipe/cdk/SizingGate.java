package io.gpupipe.cdk;

import io.gpupipe.cdk.sizing.SizingVerdict;
import io.gpupipe.cdk.sizing.VramSizing;

/** Fails synthesis when a tier's model does not fit the GPU memory its tasks ask for (seeds 002/003). */
public final class SizingGate {
    private SizingGate() {
    }

    /** The verdict for {@code spec}; throws {@link IllegalStateException} with the readable reason if too large. */
    public static SizingVerdict.Fits require(TierSpec spec) {
        SizingVerdict verdict = VramSizing.check(spec.tier().wireName(), spec.model(), spec.budget());
        if (verdict instanceof SizingVerdict.Fits fits) {
            return fits;
        }
        throw new IllegalStateException("VRAM sizing gate: " + verdict.message());
    }
}
