package io.gpupipe.router.aws;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.Tier;
import io.gpupipe.model.routing.Classifier;
import io.gpupipe.router.internal.ClassifierAnswer;
import io.gpupipe.router.internal.RoutingMetrics;
import java.util.List;
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
 * Seed 001's Bedrock classification of ambiguous jobs through the Converse API. Any error, timeout (the client's
 * API-call timeout) or unparseable answer leaves the job on the default text tier (small), as the {@link Classifier}
 * contract asks.
 */
public final class BedrockConverseClassifier implements Classifier, AutoCloseable {
    static final String SYSTEM_PROMPT = "You route requests between two language models. Answer with exactly one "
            + "word: SMALL if a 7B-parameter model can answer the request well (simple questions, short answers, "
            + "summaries), or LARGE if it needs a 70B-parameter model (multi-step reasoning, detailed analysis, "
            + "long structured output).";
    private static final Logger LOG = Logger.getLogger(BedrockConverseClassifier.class);
    private static final String NAME = "bedrock";

    private final BedrockRuntimeClient client;
    private final String modelId;
    private final RoutingMetrics metrics;
    private final List<Tier> choices;

    /** {@code choices}: the tiers the answer may name (the catalogue's text tiers). */
    public BedrockConverseClassifier(BedrockRuntimeClient client, String modelId, RoutingMetrics metrics,
                                     List<Tier> choices) {
        this.client = client;
        this.modelId = modelId;
        this.metrics = metrics;
        this.choices = List.copyOf(choices);
    }

    @Override
    public Optional<Tier> classify(InferenceJob job) {
        String answer;
        try {
            answer = text(client.converse(b -> b.modelId(modelId)
                    .system(SystemContentBlock.fromText(SYSTEM_PROMPT))
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
