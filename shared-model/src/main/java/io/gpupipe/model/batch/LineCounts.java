package io.gpupipe.model.batch;

import java.util.Arrays;
import java.util.Map;

/** How many lines ended each way: of one chunk (its ended record's key carries them) or of a whole batch. */
public record LineCounts(int succeeded, int failed, int expired, int cancelled, int invalid) {
    public static final LineCounts ZERO = new LineCounts(0, 0, 0, 0, 0);

    public LineCounts {
        if (succeeded < 0 || failed < 0 || expired < 0 || cancelled < 0 || invalid < 0) {
            throw new IllegalArgumentException("counts are never negative");
        }
    }

    /** The counts of a chunk's done records (one outcome per line). */
    public static LineCounts of(Map<Integer, LineOutcome> outcomes) {
        LineCounts counts = ZERO;
        for (LineOutcome outcome : outcomes.values()) {
            counts = counts.plus(outcome);
        }
        return counts;
    }

    public LineCounts plus(LineOutcome outcome) {
        return switch (outcome) {
            case SUCCEEDED -> new LineCounts(succeeded + 1, failed, expired, cancelled, invalid);
            case FAILED -> new LineCounts(succeeded, failed + 1, expired, cancelled, invalid);
            case EXPIRED -> new LineCounts(succeeded, failed, expired + 1, cancelled, invalid);
            case CANCELLED -> new LineCounts(succeeded, failed, expired, cancelled + 1, invalid);
            case INVALID -> new LineCounts(succeeded, failed, expired, cancelled, invalid + 1);
        };
    }

    public LineCounts plus(LineCounts other) {
        return new LineCounts(succeeded + other.succeeded, failed + other.failed, expired + other.expired,
                cancelled + other.cancelled, invalid + other.invalid);
    }

    /** Lines that have ended, whichever way. */
    public int ended() {
        return succeeded + failed + expired + cancelled + invalid;
    }

    /**
     * OpenAI's {@code request_counts} for a batch of {@code total} lines: completed = succeeded; failed = failed,
     * expired and invalid lines. Cancelled lines are neither (they are in the error file, with code batch_cancelled).
     */
    public RequestCounts toRequestCounts(int total) {
        return new RequestCounts(total, succeeded, failed + expired + invalid);
    }

    /** The lines that ended {@code outcome}'s way. */
    public int of(LineOutcome outcome) {
        return switch (outcome) {
            case SUCCEEDED -> succeeded;
            case FAILED -> failed;
            case EXPIRED -> expired;
            case CANCELLED -> cancelled;
            case INVALID -> invalid;
        };
    }

    /** The lines a retry batch runs again ({@link LineOutcome#isRetried}). */
    public int retried() {
        return Arrays.stream(LineOutcome.values()).filter(LineOutcome::isRetried).mapToInt(this::of).sum();
    }
}
