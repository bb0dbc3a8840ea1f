package io.gpupipe.model.batch;

import static io.gpupipe.model.WireStatus.open;
import static io.gpupipe.model.WireStatus.terminal;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.gpupipe.model.WireStatus;

/**
 * A batch's status, OpenAI's set (Batch object, {@code status}): validating → in_progress → finalizing → completed;
 * failed (the input could not be used), expired (lines outlived the 24 h window), cancelling → cancelled. Terminal
 * once its files and event are written.
 */
public enum BatchStatus implements WireStatus {
    VALIDATING(open("validating")),
    FAILED(terminal("failed")),
    IN_PROGRESS(open("in_progress")),
    FINALIZING(open("finalizing")),
    COMPLETED(terminal("completed")),
    EXPIRED(terminal("expired")),
    CANCELLING(open("cancelling")),
    CANCELLED(terminal("cancelled"));

    private final Wire wire;

    BatchStatus(Wire wire) {
        this.wire = wire;
    }

    @Override
    public Wire wire() {
        return wire;
    }

    @JsonCreator
    static BatchStatus fromJson(String name) {
        return WireStatus.fromWire(values(), name, "batch status");
    }
}
