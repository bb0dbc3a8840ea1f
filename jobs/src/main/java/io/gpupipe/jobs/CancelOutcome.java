package io.gpupipe.jobs;

import io.gpupipe.model.job.JobView;

/** What a cancel request did. */
public sealed interface CancelOutcome {
    /** The queued job is now cancelled (202); the worker drops its message when it sees the marker. */
    record Cancelled(JobView view) implements CancelOutcome {
    }

    /** It was cancelled before; nothing changed (200). */
    record AlreadyCancelled(JobView view) implements CancelOutcome {
    }

    /** It is running or finished and can no longer be cancelled (409). */
    record NotCancellable(JobView view) implements CancelOutcome {
    }

    /** A line of a batch: it is cancelled with its batch only (409 naming the batch). */
    record PartOfBatch(JobView view, String batchId) implements CancelOutcome {
    }

    /** Unknown job (404). */
    record NotFound(String requestId) implements CancelOutcome {
    }

    /** The path does not hold a UUID v4 (400; the router checks ids before asking). */
    record InvalidId(String raw) implements CancelOutcome {
    }
}
