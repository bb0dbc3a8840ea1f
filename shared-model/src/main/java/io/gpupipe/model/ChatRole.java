package io.gpupipe.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * The roles a chat job's message may have: OpenAI's chat format without tool calls (what
 * {@code /v1/chat/completions} and a GGUF chat template both take).
 */
public enum ChatRole {
    SYSTEM("system"),
    USER("user"),
    ASSISTANT("assistant");

    private final String wireName;

    ChatRole(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** The role with this wire name, if any (case-sensitive, as in OpenAI's API). */
    public static Optional<ChatRole> fromWireName(String name) {
        return Arrays.stream(values()).filter(r -> r.wireName.equals(name)).findFirst();
    }

    @JsonCreator
    static ChatRole fromJson(String name) {
        return fromWireName(name).orElseThrow(() -> new IllegalArgumentException("unknown chat role: " + name));
    }
}
