package io.gpupipe.worker.standin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * vLLM's checks on a {@code POST /v1/chat/completions} body that come before the engine, with vLLM's wording.
 * <ul>
 * <li>Schema (vllm/entrypoints/openai/chat_completion/protocol.py, {@code ChatCompletionRequest}):
 * {@code messages: list[ChatCompletionMessageParam]} is required; vLLM's custom message param declares
 * {@code role: Required[str]} and accepts any role string, content a string, a list of parts or none. A schema
 * violation is answered by {@code validation_exception_handler} (vllm/entrypoints/serve/utils/server_utils.py) as
 * HTTP 400 {@code BadRequestError} with pydantic's error list as the message.</li>
 * <li>Chat template: a tokenizer without one is refused ("As of transformers v4.44, default chat template is no
 * longer allowed, so you must provide a chat template if the tokenizer does not define one.", the wording the
 * {@code chat_template} field of the same request class quotes), also a 400.</li>
 * </ul>
 */
final class ChatContract {
    static final String NO_CHAT_TEMPLATE = "As of transformers v4.44, default chat template is no longer allowed, so "
            + "you must provide a chat template if the tokenizer does not define one.";

    private ChatContract() {
    }

    /** The schema error vLLM would answer, if any. */
    static Optional<String> schemaError(JsonNode body) {
        JsonNode messages = body.get("messages");
        if (messages == null) {
            return Optional.of(pydantic("missing", "body", "messages", "Field required"));
        }
        if (!messages.isArray()) {
            return Optional.of(pydantic("list_type", "body", "messages", "Input should be a valid list"));
        }
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            if (!message.isObject() || !message.path("role").isTextual()) {
                return Optional.of(pydantic("missing", "body", "messages', " + i + ", 'role",
                        "Field required"));
            }
        }
        return Optional.empty();
    }

    /**
     * The prompt a ChatML template (Qwen's, and llama.cpp's fallback) renders with the generation prompt added:
     * what the stand-in counts tokens of and matches fault fragments against.
     */
    static String render(JsonNode messages) {
        StringBuilder prompt = new StringBuilder();
        for (JsonNode message : messages) {
            prompt.append("<|im_start|>").append(message.path("role").asText()).append('\n')
                    .append(message.path("content").asText("")).append("<|im_end|>\n");
        }
        return prompt.append("<|im_start|>assistant\n").toString();
    }

    private static String pydantic(String type, String first, String second, String msg) {
        return "[{'type': '" + type + "', 'loc': ('" + first + "', '" + second + "'), 'msg': '" + msg + "'}]";
    }
}
