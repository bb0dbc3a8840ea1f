package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * A batch's status, OpenAI's set (Batch object, {@code status}): validating → in_progress → finalizing → completed;
 * failed (the input could not be used), expired (lines outlived the 24 h window), cancelling → cancelled.
 */
public enum BatchStatus {
    VALIDATING("validating", false),
    FAILED("failed", true),
    IN_PROGRESS("in_progress", false),
    FINALIZING("finalizing", false),
    COMPLETED("completed", true),
    EXPIRED("expired", true),
    CANCELLING("cancelling", false),
    CANCELLED("cancelled", true);

    private final String wireName;
    private final boolean terminal;

    BatchStatus(String wireName, boolean terminal) {
        this.wireName = wireName;
        this.terminal = terminal;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** True once the batch will never change again (its files and event are written). */
    public boolean isTerminal() {
        return terminal;
    }

    @JsonCreator
    static BatchStatus fromJson(String name) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown batch status: " + name));
    }
}
