package io.gpupipe.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/** What a job asks the model server to do. */
public enum Task {
    GENERATE("generate"),
    SPEECH("speech"),
    /** Embedding vectors of one or more input texts (OpenAI's {@code /v1/embeddings}). */
    EMBED("embed");

    private final String wireName;

    Task(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** The task with this wire name, if any (case-sensitive, as in the API). */
    public static Optional<Task> fromWireName(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
    }

    /** The wire names, comma-separated, for error messages. */
    public static String describeWireNames() {
        return String.join(", ", Arrays.stream(values()).map(Task::wireName).toList());
    }

    @JsonCreator
    static Task fromJson(String name) {
        return fromWireName(name).orElseThrow(() -> new IllegalArgumentException("unknown task: " + name));
    }
}
