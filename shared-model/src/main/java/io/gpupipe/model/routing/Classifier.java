package io.gpupipe.model.routing;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.Tier;

/** Decides the tier of a job in the ambiguous zone of the routing table (seed 001: a Bedrock model or a heuristic). */
@FunctionalInterface
public interface Classifier {
    /** The tier for {@code job}; implementations must not throw and must answer within their own timeout. */
    Tier classify(InferenceJob job);

    /** The default: every ambiguous job goes to the small tier. */
    static Classifier heuristic() {
        return job -> Tier.SMALL;
    }
}
