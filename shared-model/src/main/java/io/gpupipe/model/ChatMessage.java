package io.gpupipe.model;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One message of a chat job (OpenAI chat format, string content). {@link io.gpupipe.model.job.JobRequestParser}
 * validates them.
 */
public record ChatMessage(ChatRole role, String content) {
    public ChatMessage {
        requireNonNull(role, "role");
        requireNonNull(content, "content");
    }

    /** The characters routing and the size limit count: every message's content, summed. */
    public static int contentChars(List<ChatMessage> messages) {
        return messages.stream().mapToInt(m -> m.content().length()).sum();
    }

    /** The conversation as plain text ("role: content" lines), for consumers that take one string. */
    public static String transcript(List<ChatMessage> messages) {
        StringBuilder text = new StringBuilder();
        for (ChatMessage message : messages) {
            text.append(message.role().wireName()).append(": ").append(message.content()).append('\n');
        }
        return text.toString();
    }
}
