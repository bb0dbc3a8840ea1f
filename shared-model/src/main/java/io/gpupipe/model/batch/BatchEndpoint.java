package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.gpupipe.model.Task;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The OpenAI endpoints a batch may name (every line's {@code url} must be the batch's). OpenAI's Batch API serves
 * {@code /v1/completions}, {@code /v1/chat/completions} and {@code /v1/embeddings}; {@code /v1/audio/speech} is ours (OpenAI batches have no
 * speech endpoint).
 */
public enum BatchEndpoint {
    COMPLETIONS("/v1/completions", Task.GENERATE),
    CHAT_COMPLETIONS("/v1/chat/completions", Task.GENERATE),
    SPEECH("/v1/audio/speech", Task.SPEECH),
    EMBEDDINGS("/v1/embeddings", Task.EMBED);

    private final String path;
    private final Task task;

    BatchEndpoint(String path, Task task) {
        this.path = path;
        this.task = task;
    }

    @JsonValue
    public String path() {
        return path;
    }

    /** The task of every job of such a batch. */
    public Task task() {
        return task;
    }

    public static Optional<BatchEndpoint> fromPath(String path) {
        return Arrays.stream(values()).filter(e -> e.path.equals(path)).findFirst();
    }

    /** The paths, comma-separated, for error messages. */
    public static String describePaths() {
        return Arrays.stream(values()).map(BatchEndpoint::path).collect(Collectors.joining(", "));
    }

    @JsonCreator
    static BatchEndpoint fromJson(String path) {
        return fromPath(path).orElseThrow(() -> new IllegalArgumentException("unknown batch endpoint: " + path));
    }
}
