package io.gpupipe.worker.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.embedding.EmbeddingResponse;
import io.gpupipe.model.embedding.EncodingFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * vLLM's {@code POST /v1/embeddings} as {@code vllm serve --runner pooling} answers it for a BERT-style model that is
 * not Matryoshka-trained (BAAI/bge-small-en-v1.5: 384 values, 512 tokens): the request checks, with vLLM's messages
 * (HTTP 400 BadRequestError; vllm/entrypoints/openai/serving_embedding.py and protocol.py {@code
 * EmbeddingCompletionRequest}: {@code input} a string, strings, token ids or lists of them; {@code encoding_format}
 * float or base64; {@code dimensions} refused for a model without Matryoshka support; an input longer than
 * {@code max_model_len} refused), and the answer (vLLM's {@code EmbeddingResponse}: {@code id}, {@code object},
 * {@code created}, {@code model}, {@code data[]{index, object, embedding}}, {@code usage}). Each vector is a unit
 * vector drawn from the input's text, so equal inputs get equal vectors, as from a real model.
 */
public final class EmbeddingContract {
    /** The stand-in model's vector length (bge-small-en-v1.5's hidden size). */
    public static final int DIMENSIONS = 384;

    private EmbeddingContract() {
    }

    /** The texts of a request's {@code input} (token ids stand for themselves), or empty when it has none. */
    static Optional<List<String>> inputs(JsonNode body) {
        JsonNode input = body.get("input");
        List<String> texts = new ArrayList<>();
        if (input != null && input.isTextual()) {
            texts.add(input.textValue());
        } else if (input != null && input.isArray() && !input.isEmpty()) {
            input.forEach(element -> texts.add(element.isTextual() ? element.textValue() : element.toString()));
        } else {
            return Optional.empty();
        }
        return Optional.of(texts);
    }

    static Optional<String> reject(JsonNode body, String model, int maxModelLen) {
        Optional<List<String>> inputs = inputs(body);
        if (inputs.isEmpty()) {
            return Optional.of("1 validation error for EmbeddingCompletionRequest\ninput\n  Field required");
        }
        String format = body.path("encoding_format").asText("float");
        if (EncodingFormat.fromWireName(format).isEmpty()) {
            return Optional.of("1 validation error for EmbeddingCompletionRequest\nencoding_format\n  Input should be "
                    + "'float' or 'base64'");
        }
        if (body.hasNonNull("dimensions")) {
            return Optional.of("Model \"" + model + "\" does not support matryoshka representation, changing output "
                    + "dimensions will lead to poor results.");
        }
        for (String input : inputs.get()) {
            int tokens = VllmStandIn.promptTokens(input);
            if (tokens > maxModelLen) {
                return Optional.of("This model's maximum context length is " + maxModelLen + " tokens. However, you "
                        + "requested " + tokens + " tokens in the input for embedding generation. Please reduce the "
                        + "length of the input.");
            }
        }
        return Optional.empty();
    }

    /** vLLM's answer to a request {@link #reject} accepted. */
    static ObjectNode answer(JsonNode body, String model) {
        List<String> inputs = inputs(body).orElseThrow();
        EncodingFormat format = EncodingFormat.fromWireName(body.path("encoding_format").asText("float"))
                .orElseThrow();
        ObjectNode response = JobJson.mapper().createObjectNode();
        response.put("id", "embd-" + Integer.toHexString(inputs.hashCode())).put("object", "list")
                .put("created", System.currentTimeMillis() / 1000).put("model", model);
        ArrayNode data = response.putArray("data");
        int tokens = 0;
        for (int i = 0; i < inputs.size(); i++) {
            data.addObject().put("index", i).put("object", "embedding")
                    .set("embedding", EmbeddingResponse.encode(vector(inputs.get(i)), format));
            tokens += VllmStandIn.promptTokens(inputs.get(i));
        }
        response.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens)
                .put("completion_tokens", 0).putNull("prompt_tokens_details");
        return response;
    }

    /** A unit vector of {@link #DIMENSIONS} values determined by {@code text}. */
    public static float[] vector(String text) {
        SplittableRandom random = new SplittableRandom(text.hashCode());
        float[] vector = new float[DIMENSIONS];
        double sumOfSquares = 0;
        for (int i = 0; i < DIMENSIONS; i++) {
            vector[i] = (float) random.nextGaussian();
            sumOfSquares += (double) vector[i] * vector[i];
        }
        double norm = Math.sqrt(sumOfSquares);
        for (int i = 0; i < DIMENSIONS; i++) {
            vector[i] = (float) (vector[i] / norm);
        }
        return vector;
    }
}
