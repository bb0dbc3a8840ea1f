package io.gpupipe.router.aws;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.routing.Classifier;
import io.gpupipe.router.internal.ClassifierAnswer;
import io.gpupipe.router.internal.RoutingMetrics;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import software.amazon.awssdk.services.bedrockruntime.model.SystemContentBlock;

/**
 * Seed 001's Bedrock classification of ambiguous jobs through the Converse API. The prompt names the catalogue's text
 * tiers by their routing roles ({@link #systemPrompt}), so a new tier is offered without a code change. Any error,
 * timeout (the client's API-call timeout) or unparseable answer leaves the job on the default text tier, as the
 * {@link Classifier} contract asks.
 */
public final class BedrockConverseClassifier implements Classifier, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(BedrockConverseClassifier.class);
    private static final String NAME = "bedrock";

    private final BedrockRuntimeClient client;
    private final String modelId;
    private final RoutingMetrics metrics;
    private final List<Tier> choices;
    private final String systemPrompt;

    /** Chooses among the text tiers of {@code tiers}. */
    public BedrockConverseClassifier(BedrockRuntimeClient client, String modelId, RoutingMetrics metrics,
                                     TierCatalogue tiers) {
        this.client = client;
        this.modelId = modelId;
        this.metrics = metrics;
        this.choices = tiers.serving(Task.GENERATE);
        this.systemPrompt = systemPrompt(tiers);
    }

    /**
     * The instruction: answer with one text tier's name, the catalogue's default text tier for what a small model
     * answers well, its escalation tier for what needs the most capable one, any other text tier in between.
     */
    public static String systemPrompt(TierCatalogue tiers) {
        Tier small = tiers.defaultTier(Task.GENERATE);
        Tier large = tiers.escalationTier();
        List<String> between = tiers.serving(Task.GENERATE).stream()
                .filter(t -> !t.equals(small) && !t.equals(large)).map(BedrockConverseClassifier::word).toList();
        return "You route requests between language models of different sizes. Answer with exactly one word: "
                + word(small) + " if a small model can answer the request well (simple questions, short answers, "
                + "summaries), " + (between.isEmpty() ? "or " : "")
                + word(large) + " if it needs the most capable model (multi-step reasoning, detailed analysis, long "
                + "structured output)"
                + (between.isEmpty() ? "" : ", or " + String.join(" or ", between) + " for requests in between")
                + ".";
    }

    private static String word(Tier tier) {
        return tier.wireName().toUpperCase(Locale.ROOT);
    }

    @Override
    public Optional<Tier> classify(InferenceJob job) {
        String answer;
        try {
            answer = text(client.converse(b -> b.modelId(modelId)
                    .system(SystemContentBlock.fromText(systemPrompt))
                    .messages(Message.builder().role(ConversationRole.USER)
                            .content(ContentBlock.fromText(job.inputText())).build())
                    .inferenceConfig(c -> c.maxTokens(5).temperature(0f))));
        } catch (RuntimeException e) {
            return fallback(job, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        Optional<Tier> tier = ClassifierAnswer.parse(answer, choices);
        if (tier.isEmpty()) {
            return fallback(job, "unparseable answer: " + answer);
        }
        return tier;
    }

    @Override
    public void close() {
        client.close();
    }

    private Optional<Tier> fallback(InferenceJob job, String cause) {
        LOG.warnf("classifier %s failed for job %s, routing to the default text tier: %s", modelId, job.requestId(),
                cause);
        metrics.classifierFallback(NAME, cause);
        return Optional.empty();
    }

    private static String text(ConverseResponse response) {
        if (response.output() == null || response.output().message() == null) {
            return null;
        }
        return response.output().message().content().stream().map(ContentBlock::text).filter(Objects::nonNull)
                .collect(Collectors.joining(" "));
    }
}
