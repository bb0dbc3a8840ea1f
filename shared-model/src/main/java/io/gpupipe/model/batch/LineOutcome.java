package io.gpupipe.model.batch;

import java.util.Arrays;
import java.util.Optional;

/**
 * How one line of a batch ended, as its done record's key suffix says: a job that succeeded, failed or expired, a
 * job cancelled before it started, or a line that never became a job (invalid).
 */
public enum LineOutcome {
    SUCCEEDED('s'),
    FAILED('f'),
    EXPIRED('x'),
    CANCELLED('c'),
    INVALID('i');

    private final char code;

    LineOutcome(char code) {
        this.code = code;
    }

    /** The key suffix of a done record. */
    public char code() {
        return code;
    }

    public static Optional<LineOutcome> fromCode(char code) {
        return Arrays.stream(values()).filter(o -> o.code == code).findFirst();
    }

    /** True when the line ended because a job ended (its result is in S3). */
    public boolean hasResult() {
        return switch (this) {
            case SUCCEEDED, FAILED, EXPIRED -> true;
            case CANCELLED, INVALID -> false;
        };
    }
}
