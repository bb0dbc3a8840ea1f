package io.gpupipe.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** Lifecycle of a job: queued → running → succeeded | failed | cancelled. */
public enum JobStatus {
    QUEUED("queued", false),
    RUNNING("running", false),
    SUCCEEDED("succeeded", true),
    FAILED("failed", true),
    CANCELLED("cancelled", true);

    private final String wireName;
    private final boolean terminal;

    JobStatus(String wireName, boolean terminal) {
        this.wireName = wireName;
        this.terminal = terminal;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** True when the job will never change again. */
    public boolean isTerminal() {
        return terminal;
    }

    @JsonCreator
    static JobStatus fromJson(String name) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown status: " + name));
    }
}
