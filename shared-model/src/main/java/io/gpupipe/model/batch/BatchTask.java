package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.JobJson;
import java.util.Arrays;
import java.util.Locale;

/**
 * One message of the batch queue: a step of a batch's life, each idempotent, so a redelivered message does no harm.
 * PLAN reads the input once and fans out SUBMIT_CHUNK per chunk; a chunk whose lines have all ended gets CHUNK_ENDED
 * (from the notifier, or from the batch function after invalid or cancelled lines); the last ended chunk sends
 * FINALIZE. CANCEL fans out CANCEL_CHUNK per chunk.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchTask(Type type, String batchId, Integer chunk) {

    public enum Type {
        PLAN(false),
        SUBMIT_CHUNK(true),
        CHUNK_ENDED(true),
        FINALIZE(false),
        CANCEL(false),
        CANCEL_CHUNK(true);

        private final boolean perChunk;

        Type(boolean perChunk) {
            this.perChunk = perChunk;
        }

        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        static Type fromJson(String name) {
            return Arrays.stream(values()).filter(t -> t.wireName().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown batch task: " + name));
        }
    }

    public BatchTask {
        if (type == null || !BatchIds.isValidBatchId(batchId)) {
            throw new IllegalArgumentException("a batch task needs a type and a batch_<uuid> id");
        }
        if (type.perChunk != (chunk != null) || (chunk != null && chunk < 0)) {
            throw new IllegalArgumentException(type.wireName() + (type.perChunk ? " needs" : " takes no") + " chunk");
        }
    }

    public static BatchTask of(Type type, String batchId) {
        return new BatchTask(type, batchId, null);
    }

    public static BatchTask ofChunk(Type type, String batchId, int chunk) {
        return new BatchTask(type, batchId, chunk);
    }

    public String toJson() {
        return JobJson.write(this);
    }

    /** Reads a queue message body; throws {@link IllegalArgumentException} when it is no batch task. */
    public static BatchTask read(String body) {
        try {
            return JobJson.read(body, BatchTask.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a batch task: " + e.getMessage(), e);
        }
    }
}
