package io.gpupipe.model.contract;

import java.util.Objects;

/**
 * A known, sourced difference between what a body carries and what OpenAI's published schema says, taken out of the
 * body before {@link OpenAiSpec} judges the rest. {@code path} names the field: dot-separated names, {@code []} after
 * a name for every element of that array ({@code choices[].stop_reason}). {@code source} says whose rule it is
 * (vLLM's or vLLM-Omni's code or docs, or ours) so that every allowance can be checked against its origin.
 */
public record Deviation(String path, Kind kind, String source) {

    /** How the body differs from the schema at {@code path}. */
    public enum Kind {
        /** A field OpenAI's schema does not declare; taken out whatever its value. */
        EXTENSION,
        /** A declared optional field sent as JSON null where the schema admits no null; taken out only when null. */
        NULL_FOR_ABSENT,
        /** A declared field of another JSON type (an integer where OpenAI has a string or null); judged as null. */
        INTEGER_FOR_NULLABLE_STRING
    }

    public Deviation {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
        if (source == null || source.isBlank()) {
            throw new IllegalArgumentException("a deviation needs its source: " + path);
        }
    }

    public static Deviation extension(String path, String source) {
        return new Deviation(path, Kind.EXTENSION, source);
    }

    public static Deviation nullForAbsent(String path, String source) {
        return new Deviation(path, Kind.NULL_FOR_ABSENT, source);
    }

    public static Deviation integerForNullableString(String path, String source) {
        return new Deviation(path, Kind.INTEGER_FOR_NULLABLE_STRING, source);
    }
}
