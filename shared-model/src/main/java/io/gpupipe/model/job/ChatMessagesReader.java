package io.gpupipe.model.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.ChatRole;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.JobLimits;
import io.gpupipe.model.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads and validates a chat job's {@code messages} for {@link JobRequestParser}, naming each bad entry's field. */
final class ChatMessagesReader {
    /** Bad chat messages reported one by one; beyond this many, one summary error (keeps a 400 small). */
    static final int MAX_REPORTED_MESSAGE_ERRORS = 10;

    private ChatMessagesReader() {
    }

    /**
     * A chat job's {@code messages} (OpenAI chat format: {@code [{"role": "system"|"user"|"assistant", "content":
     * "…"}]}, string content only), or null when absent. Exactly one of {@code prompt} and {@code messages}.
     */
    static List<ChatMessage> read(FieldReader fields, Task task) {
        if (fields.isAbsent("messages")) {
            return null;
        }
        JsonNode node = fields.node("messages");
        if (!fields.isAbsent("prompt")) {
            fields.error("messages", ErrorCodes.MUTUALLY_EXCLUSIVE, "give either prompt or messages, not both");
        } else if (task != Task.GENERATE) {
            fields.error("messages", ErrorCodes.NOT_APPLICABLE, "messages apply only to task \"generate\"");
        } else if (!node.isArray()) {
            fields.error("messages", ErrorCodes.INVALID_TYPE, "messages must be an array, got "
                    + FieldReader.describe(node));
        } else if (node.isEmpty()) {
            fields.error("messages", ErrorCodes.REQUIRED, "messages must hold at least one message");
        } else {
            return readMessageList(fields, node);
        }
        return null;
    }

    private static List<ChatMessage> readMessageList(FieldReader fields, JsonNode array) {
        var messages = new ArrayList<ChatMessage>(array.size());
        var errors = new ArrayList<FieldError>();
        for (int i = 0; i < array.size(); i++) {
            String prefix = "messages[" + i + "].";
            JsonNode element = array.get(i);
            if (!element.isObject()) {
                errors.add(new FieldError("messages[" + i + "]", ErrorCodes.INVALID_TYPE, "messages[" + i
                        + "] must be an object {role, content}, got " + FieldReader.describe(element)));
                continue;
            }
            int before = errors.size();
            var message = new FieldReader(element, errors, prefix);
            Optional<ChatRole> role = message.enumValue("role", ChatRole::fromWireName, "system, user, assistant");
            if (message.isAbsent("role")) {
                message.error("role", ErrorCodes.REQUIRED, "role is required");
            }
            Optional<String> content = message.string("content");
            if (message.isAbsent("content") || content.filter(String::isBlank).isPresent()) {
                message.error("content", ErrorCodes.REQUIRED, "content must not be empty or whitespace");
            }
            if (errors.size() == before) {
                messages.add(new ChatMessage(role.orElseThrow(), content.orElseThrow()));
            }
        }
        errors.stream().limit(MAX_REPORTED_MESSAGE_ERRORS).forEach(e -> fields.error(e.field(), e.code(),
                e.message()));
        if (errors.size() > MAX_REPORTED_MESSAGE_ERRORS) {
            fields.error("messages", ErrorCodes.INVALID_VALUE, (errors.size() - MAX_REPORTED_MESSAGE_ERRORS)
                    + " more errors in messages not listed");
        }
        int chars = ChatMessage.contentChars(messages);
        if (chars > JobLimits.MAX_PROMPT_CHARS) {
            fields.error("messages", ErrorCodes.TOO_LONG, "messages' contents must be at most "
                    + JobLimits.MAX_PROMPT_CHARS + " characters in total, got " + chars);
        }
        return errors.isEmpty() && chars <= JobLimits.MAX_PROMPT_CHARS ? messages : null;
    }
}
