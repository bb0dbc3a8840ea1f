package io.gpupipe.worker.backend.openai;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.gpupipe.model.format.ResponseFormat;
import java.util.List;

/** Request and response bodies of the OpenAI-compatible API, as vLLM speaks it. */
public final class VllmDtos {
    private VllmDtos() {
    }

    /**
     * {@code POST /v1/completions}; {@code priority} is omitted when null (servers without priority scheduling), and
     * so is {@code seed} (vLLM's sampling seed, {@code seed: int | None} in the request protocol). A
     * {@code response_format} is vLLM's extension of OpenAI's completions ({@code CompletionRequest.response_format:
     * AnyResponseFormat}, vllm/entrypoints/openai/completion/protocol.py: json_object, json_schema or text, decoded
     * under the schema as structured outputs); omitted when null.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CompletionRequest(String model, String prompt, @JsonProperty("max_tokens") int maxTokens,
                                    double temperature, @JsonProperty("top_p") double topP, Integer priority,
                                    Integer seed, @JsonProperty("response_format") ResponseFormat responseFormat) {
    }

    /**
     * {@code POST /v1/chat/completions} (vLLM's {@code ChatCompletionRequest}, chat_completion/protocol.py): the
     * server applies the model's chat template to {@code messages}. {@code max_tokens} rather than its successor
     * {@code max_completion_tokens}: vLLM takes both, other OpenAI-compatible servers (llama.cpp, TGI) the first.
     * {@code response_format} is OpenAI's own (vLLM's {@code ResponseFormat}: type, json_schema{name, description,
     * schema, strict}); omitted when null.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ChatCompletionRequest(String model, List<ChatMessage> messages,
                                        @JsonProperty("max_tokens") int maxTokens, double temperature,
                                        @JsonProperty("top_p") double topP, Integer priority, Integer seed,
                                        @JsonProperty("response_format") ResponseFormat responseFormat) {
    }

    /** One message of a chat request or the assistant's answer ({@code role}, string {@code content}). */
    public record ChatMessage(String role, String content) {
    }

    public record ChatCompletionResponse(String id, String model, List<ChatChoice> choices, Usage usage) {
    }

    public record ChatChoice(int index, ChatMessage message, @JsonProperty("finish_reason") String finishReason) {
    }

    public record CompletionResponse(String id, String model, List<Choice> choices, Usage usage) {
    }

    public record Choice(int index, String text, @JsonProperty("finish_reason") String finishReason) {
    }

    public record Usage(@JsonProperty("prompt_tokens") int promptTokens,
                        @JsonProperty("completion_tokens") int completionTokens,
                        @JsonProperty("total_tokens") int totalTokens) {
    }

    /**
     * {@code POST /v1/audio/speech} as vLLM-Omni serves it (docs/serving/speech_api.md: {@code input},
     * {@code voice}, {@code response_format}, {@code speed} 0.25-4.0, and its extensions {@code language},
     * {@code instructions}); answers with the audio file itself (Qwen3-TTS: 24 kHz). Unset fields are omitted so
     * the server's defaults apply (voice "vivian", language "Auto", speed 1.0).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SpeechRequest(String model, String input, String voice,
                                @JsonProperty("response_format") String responseFormat, String language, Double speed,
                                String instructions) {
    }

    /**
     * {@code POST /v1/embeddings} (OpenAI's CreateEmbeddingRequest, served by {@code vllm serve --runner pooling}):
     * always float vectors at the model's own length; the worker shortens and encodes them itself
     * ({@link io.gpupipe.model.embedding.VectorLength}), so every backend answers alike and no model is asked for a
     * length it was not trained for.
     */
    public record EmbeddingRequest(String model, List<String> input,
                                   @JsonProperty("encoding_format") String encodingFormat) {
    }

    /** vLLM's embedding answer: {@code data[].index}, {@code data[].embedding}, {@code usage.prompt_tokens}. */
    public record EmbeddingResponse(String model, List<EmbeddingData> data, Usage usage) {
    }

    public record EmbeddingData(int index, float[] embedding) {
    }

    /** {@code GET /v1/models}. */
    public record ModelList(List<ModelCard> data) {
    }

    public record ModelCard(String id, String root) {
    }
}
