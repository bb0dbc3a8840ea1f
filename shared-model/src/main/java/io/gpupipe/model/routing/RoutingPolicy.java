package io.gpupipe.model.routing;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.InferenceJob;
import java.util.Objects;
import java.util.Optional;

/**
 * Seed 001's routing table for text: an explicit {@code route} wins; a long prompt or a large maxTokens goes to the
 * catalogue's escalation tier (large); a mid-length prompt is left to the {@link Classifier}; everything else goes
 * to the default text tier (small). Other tasks go to the tier the catalogue configures for them (speech → speech,
 * embed → embed): prompt length and maxTokens say nothing about them, and no text tier can serve them.
 * The request parser has already refused a {@code route} that names no tier, or one that cannot serve the task.
 */
public final class RoutingPolicy {
    private final RoutingThresholds thresholds;
    private final Classifier classifier;
    private final TierCatalogue catalogue;

    public RoutingPolicy(RoutingThresholds thresholds, Classifier classifier, TierCatalogue catalogue) {
        this.thresholds = Objects.requireNonNull(thresholds);
        this.classifier = Objects.requireNonNull(classifier);
        this.catalogue = Objects.requireNonNull(catalogue);
    }

    public RoutingPolicy(RoutingThresholds thresholds, Classifier classifier) {
        this(thresholds, classifier, TierCatalogue.bundled());
    }

    /** The default thresholds (2000 / 1024 / 500) with the heuristic classifier and the bundled catalogue. */
    public static RoutingPolicy defaults() {
        return new RoutingPolicy(RoutingThresholds.DEFAULTS, Classifier.heuristic());
    }

    public RoutingDecision route(InferenceJob job) {
        if (job.route() != null) {
            return new RoutingDecision(job.route(), RoutingDecision.Reason.EXPLICIT_ROUTE);
        }
        return switch (job.task()) {
            case GENERATE -> routeText(job);
            case SPEECH, EMBED -> new RoutingDecision(catalogue.defaultTier(job.task()),
                    RoutingDecision.Reason.TASK_DEFAULT);
        };
    }

    private RoutingDecision routeText(InferenceJob job) {
        // a chat job's "prompt length" is every message's content, summed (seed 001 counts prompt characters)
        int promptChars = job.inputChars();
        if (promptChars > thresholds.largePromptChars()) {
            return new RoutingDecision(catalogue.escalationTier(), RoutingDecision.Reason.PROMPT_LENGTH);
        }
        if (job.maxTokens() > thresholds.largeMaxTokens()) {
            return new RoutingDecision(catalogue.escalationTier(), RoutingDecision.Reason.MAX_TOKENS);
        }
        Tier fallback = catalogue.defaultTier(Task.GENERATE);
        if (promptChars > thresholds.ambiguousPromptChars()) {
            Optional<Tier> chosen = classifier.classify(job);
            Tier tier = chosen == null ? fallback : chosen
                    .filter(t -> catalogue.serving(Task.GENERATE).contains(t)).orElse(fallback);
            return new RoutingDecision(tier, RoutingDecision.Reason.CLASSIFIER);
        }
        return new RoutingDecision(fallback, RoutingDecision.Reason.DEFAULT);
    }
}
