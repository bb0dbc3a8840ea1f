package io.gpupipe.model.routing;

import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import java.util.Optional;

/** Decides the tier of a job in the ambiguous zone of the routing table (seed 001: a Bedrock model or a heuristic). */
@FunctionalInterface
public interface Classifier {
    /**
     * The tier for {@code job}, or empty to leave it at the text default tier; implementations must not throw and
     * must answer within their own timeout.
     */
    Optional<Tier> classify(InferenceJob job);

    /** The default: every ambiguous job stays on the default text tier. */
    static Classifier heuristic() {
        return job -> Optional.empty();
    }
}
