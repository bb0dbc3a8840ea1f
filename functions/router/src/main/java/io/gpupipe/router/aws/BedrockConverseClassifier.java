package io.gpupipe.router.aws;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.Tier;
import io.gpupipe.model.routing.Classifier;
import io.gpupipe.router.internal.ClassifierAnswer;
import io.gpupipe.router.internal.RoutingMetrics;
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
 * API-call timeout) or unparseable answer sends the job to the small tier, as the {@link Classifier} contract asks.
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

    public BedrockConverseClassifier(BedrockRuntimeClient client, String modelId, RoutingMetrics metrics) {
        this.client = client;
        this.modelId = modelId;
        this.metrics = metrics;
    }

    @Override
    public Tier classify(InferenceJob job) {
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
        Optional<Tier> tier = ClassifierAnswer.parse(answer);
        if (tier.isEmpty()) {
            return fallback(job, "unparseable answer: " + answer);
        }
        return tier.get();
    }

    @Override
    public void close() {
        client.close();
    }

    private Tier fallback(InferenceJob job, String cause) {
        LOG.warnf("classifier %s failed for job %s, routing small: %s", modelId, job.requestId(), cause);
        metrics.classifierFallback(NAME, cause);
        return Tier.SMALL;
    }

    private static String text(ConverseResponse response) {
        if (response.output() == null || response.output().message() == null) {
            return null;
        }
        return response.output().message().content().stream().map(ContentBlock::text).filter(Objects::nonNull)
                .collect(Collectors.joining(" "));
    }
}
