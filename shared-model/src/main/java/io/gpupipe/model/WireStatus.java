package io.gpupipe.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * A lifecycle status as it travels (JSON documents, the API): its wire name, and whether it is final. The status
 * enums ({@link JobStatus}, {@link io.gpupipe.model.batch.BatchStatus}) each hold one {@link Wire} and read their
 * wire names back with {@link #fromWire}; what each still repeats (the field, its constructor and accessor, the
 * {@code @JsonCreator}) is what a Java enum cannot inherit.
 */
public interface WireStatus {
    /** The status's name on the wire and whether nothing follows it. */
    record Wire(String name, boolean terminal) {
    }

    Wire wire();

    /** The status as it is written. */
    @JsonValue
    default String wireName() {
        return wire().name();
    }

    /** True when the job or batch will never change again. */
    default boolean isTerminal() {
        return wire().terminal();
    }

    /** A status that others follow. */
    static Wire open(String wire) {
        return new Wire(wire, false);
    }

    /** A status that nothing follows. */
    static Wire terminal(String wire) {
        return new Wire(wire, true);
    }

    /** The status among {@code values} written {@code wire}; {@code what} names the set in the error. */
    static <S extends WireStatus> S fromWire(S[] values, String wire, String what) {
        return Arrays.stream(values).filter(s -> s.wireName().equals(wire)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown " + what + ": " + wire));
    }
}
