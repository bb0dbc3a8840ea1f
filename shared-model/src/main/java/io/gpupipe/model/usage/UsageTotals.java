package io.gpupipe.model.usage;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * Sums of usage: jobs by status (a result is succeeded or failed), the tokens and inference time of the jobs' own
 * model runs, and how many were answered by the result cache.
 */
public record UsageTotals(long succeeded, long failed, long promptTokens, long completionTokens, long inferenceMs,
                          long cacheHits) {
    public static final UsageTotals ZERO = new UsageTotals(0, 0, 0, 0, 0, 0);

    /** What one job counts. */
    public static UsageTotals of(UsageRecord record) {
        boolean succeeded = switch (record.status()) {
            case SUCCEEDED -> true;
            case FAILED -> false;
            case QUEUED, RUNNING, CANCELLED -> throw new IllegalArgumentException("a usage record is of a result");
        };
        return new UsageTotals(succeeded ? 1 : 0, succeeded ? 0 : 1, record.promptTokens(),
                record.completionTokens(), record.inferenceMs(), record.cached() ? 1 : 0);
    }

    public UsageTotals plus(UsageTotals other) {
        return new UsageTotals(succeeded + other.succeeded, failed + other.failed, promptTokens + other.promptTokens,
                completionTokens + other.completionTokens, inferenceMs + other.inferenceMs,
                cacheHits + other.cacheHits);
    }

    /** Every job counted, whatever its status. */
    @JsonIgnore
    public long jobs() {
        return succeeded + failed;
    }

    /** Prompt and completion tokens. */
    @JsonIgnore
    public long tokens() {
        return promptTokens + completionTokens;
    }
}
