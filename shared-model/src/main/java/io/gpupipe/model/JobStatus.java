package io.gpupipe.model;

import static io.gpupipe.model.WireStatus.open;
import static io.gpupipe.model.WireStatus.terminal;

import com.fasterxml.jackson.annotation.JsonCreator;

/** Lifecycle of a job: queued → running → succeeded | failed | cancelled. */
public enum JobStatus implements WireStatus {
    QUEUED(open("queued")),
    RUNNING(open("running")),
    SUCCEEDED(terminal("succeeded")),
    FAILED(terminal("failed")),
    CANCELLED(terminal("cancelled"));

    private final Wire wire;

    JobStatus(Wire wire) {
        this.wire = wire;
    }

    @Override
    public Wire wire() {
        return wire;
    }

    @JsonCreator
    static JobStatus fromJson(String name) {
        return WireStatus.fromWire(values(), name, "status");
    }
}
