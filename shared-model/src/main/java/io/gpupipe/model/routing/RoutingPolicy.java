package io.gpupipe.model.routing;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import java.util.Objects;

/**
 * Seed 001's routing table: an explicit {@code route} wins; a long prompt or a large maxTokens goes large; a
 * mid-length prompt is left to the {@link Classifier}; everything else goes small. Speech jobs without a route go
 * small: text-to-speech cost does not grow with model tier the way reasoning does.
 */
public final class RoutingPolicy {
    private final RoutingThresholds thresholds;
    private final Classifier classifier;

    public RoutingPolicy(RoutingThresholds thresholds, Classifier classifier) {
        this.thresholds = Objects.requireNonNull(thresholds);
        this.classifier = Objects.requireNonNull(classifier);
    }

    /** The default thresholds (2000 / 1024 / 500) with the heuristic classifier. */
    public static RoutingPolicy defaults() {
        return new RoutingPolicy(RoutingThresholds.DEFAULTS, Classifier.heuristic());
    }

    public RoutingDecision route(InferenceJob job) {
        if (job.route() != null) {
            return new RoutingDecision(job.route(), RoutingDecision.Reason.EXPLICIT_ROUTE);
        }
        if (job.task() == Task.SPEECH) {
            return new RoutingDecision(Tier.SMALL, RoutingDecision.Reason.SPEECH_DEFAULT);
        }
        // a chat job's "prompt length" is every message's content, summed (seed 001 counts prompt characters)
        int promptChars = job.inputChars();
        if (promptChars > thresholds.largePromptChars()) {
            return new RoutingDecision(Tier.LARGE, RoutingDecision.Reason.PROMPT_LENGTH);
        }
        if (job.maxTokens() > thresholds.largeMaxTokens()) {
            return new RoutingDecision(Tier.LARGE, RoutingDecision.Reason.MAX_TOKENS);
        }
        if (promptChars > thresholds.ambiguousPromptChars()) {
            Tier tier = classifier.classify(job);
            return new RoutingDecision(tier == null ? Tier.SMALL : tier, RoutingDecision.Reason.CLASSIFIER);
        }
        return new RoutingDecision(Tier.SMALL, RoutingDecision.Reason.DEFAULT);
    }
}
