package io.gpupipe.model.batch;

import java.util.List;

/**
 * Which lines of an ended batch a retry batch runs again ({@link LineOutcome#isRetried}: failed, expired and
 * cancelled lines; never the succeeded or invalid ones), and whether a batch can be retried at all: only once it
 * has ended, only once, and only when it has such lines.
 */
public final class BatchRetry {
    private BatchRetry() {
    }

    /** Whether {@code batch} can be retried, given the counts of its ended chunks. */
    public sealed interface Decision {
        /** A retry batch of {@code lines} lines can be created. */
        record Retry(int lines) implements Decision {
        }

        /** The batch has not ended yet ({@code status}): its lines may still run. */
        record NotEnded(BatchStatus status) implements Decision {
        }

        /** The batch was already retried, by {@code retryId}. */
        record AlreadyRetried(String retryId) implements Decision {
        }

        /** No line of the batch would run again: {@code why}. */
        record NothingToRetry(String why) implements Decision {
        }
    }

    /**
     * {@code batch}: its record (terminal once it ended); {@code ended}: the summed counts of its ended chunks
     * ({@link BatchProgress#endedCounts}).
     */
    public static Decision decide(BatchState batch, LineCounts ended) {
        if (!batch.status().isTerminal()) {
            return new Decision.NotEnded(batch.status());
        }
        if (batch.retriedBy() != null) {
            return new Decision.AlreadyRetried(batch.retriedBy());
        }
        if (batch.status() == BatchStatus.FAILED) {
            return new Decision.NothingToRetry("its input file could not be used as a batch (see errors), so no line"
                    + " ran: correct the file and create a new batch");
        }
        if (ended.retried() == 0) {
            return new Decision.NothingToRetry("no line failed, expired or was cancelled (" + ended.succeeded()
                    + " succeeded, " + ended.invalid() + " invalid: an invalid line is refused again as it is)");
        }
        return new Decision.Retry(ended.retried());
    }

    /**
     * The line numbers of one chunk that a retry runs again, in input order: a line that became a job and ended
     * failed, expired or cancelled, or never ended at all (never started). Invalid lines are not retried.
     */
    public static List<Integer> linesToRetry(ChunkManifest manifest, ChunkProgress progress) {
        return manifest.entries().stream().filter(entry -> entry.error() == null).filter(entry -> {
            LineOutcome outcome = progress.outcomes().get(entry.line());
            return outcome == null || outcome.isRetried();
        }).map(ChunkManifest.Entry::line).toList();
    }
}
