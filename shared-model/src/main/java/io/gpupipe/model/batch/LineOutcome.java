package io.gpupipe.model.batch;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.job.JobResult;
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

    /** How the line of {@code result}'s job ended: succeeded, expired (its TTL ran out), or failed. */
    public static LineOutcome of(JobResult result) {
        if (result.status() == JobStatus.SUCCEEDED) {
            return SUCCEEDED;
        }
        return result.error() != null && ErrorCodes.EXPIRED.equals(result.error().code()) ? EXPIRED : FAILED;
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

    /**
     * True when a retry batch runs the line again: a job that failed, or one that never started (expired before it
     * started, or cancelled). A succeeded line is kept, and an invalid line would be refused again as it is.
     */
    public boolean isRetried() {
        return switch (this) {
            case FAILED, EXPIRED, CANCELLED -> true;
            case SUCCEEDED, INVALID -> false;
        };
    }
}
