package io.gpupipe.model.embedding;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * An embedding job's output in OpenAI's shape ({@code CreateEmbeddingResponse}: {@code {"object": "list", "data":
 * [{"object": "embedding", "index", "embedding"}], "model", "usage": {"prompt_tokens", "total_tokens"}}}), one entry
 * per input in input order. Each {@code embedding} is an array of numbers, or with {@link EncodingFormat#BASE64} a
 * string: base64 of the vector's little-endian float32 bytes, as OpenAI and vLLM encode it.
 */
public record EmbeddingResponse(String object, List<Item> data, String model, Usage usage) {
    public static final String LIST = "list";
    public static final String EMBEDDING = "embedding";

    public EmbeddingResponse {
        Objects.requireNonNull(data, "data");
        data = List.copyOf(data);
    }

    /** One input's vector. */
    public record Item(String object, int index, JsonNode embedding) {
    }

    /** OpenAI's usage of an embedding request: the input's tokens, which are all its tokens. */
    public record Usage(@JsonProperty("prompt_tokens") int promptTokens,
                        @JsonProperty("total_tokens") int totalTokens) {
    }

    /**
     * The response for {@code vectors} (one per input, each already of the job's length) written in {@code format}.
     */
    public static EmbeddingResponse of(List<float[]> vectors, EncodingFormat format, String model, int promptTokens) {
        List<Item> items = new ArrayList<>(vectors.size());
        for (int i = 0; i < vectors.size(); i++) {
            items.add(new Item(EMBEDDING, i, encode(vectors.get(i), format)));
        }
        return new EmbeddingResponse(LIST, items, model, new Usage(promptTokens, promptTokens));
    }

    /** The length of every vector (0 when there are none). */
    public int dimensions() {
        return data.isEmpty() ? 0 : decode(data.get(0).embedding()).length;
    }

    /** A vector as this format writes it. */
    public static JsonNode encode(float[] vector, EncodingFormat format) {
        return switch (format) {
            case FLOAT -> {
                ArrayNode array = JsonNodeFactory.instance.arrayNode(vector.length);
                for (float value : vector) {
                    array.add(value);
                }
                yield array;
            }
            case BASE64 -> {
                ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
                for (float value : vector) {
                    bytes.putFloat(value);
                }
                yield TextNode.valueOf(Base64.getEncoder().encodeToString(bytes.array()));
            }
        };
    }

    /** A vector back from either form ({@link #encode}'s inverse). */
    public static float[] decode(JsonNode embedding) {
        if (embedding.isTextual()) {
            ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(embedding.textValue()))
                    .order(ByteOrder.LITTLE_ENDIAN);
            float[] vector = new float[bytes.remaining() / Float.BYTES];
            for (int i = 0; i < vector.length; i++) {
                vector[i] = bytes.getFloat();
            }
            return vector;
        }
        float[] vector = new float[embedding.size()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = embedding.get(i).floatValue();
        }
        return vector;
    }
}
