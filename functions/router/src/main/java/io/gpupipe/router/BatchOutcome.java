package io.gpupipe.router;

import io.gpupipe.model.FieldError;
import io.gpupipe.model.batch.BatchObject;
import io.gpupipe.jobs.quota.QuotaKind;
import java.time.Duration;
import java.util.List;

/** What became of a batch request. */
public sealed interface BatchOutcome {
    /** The batch as it is now (200). */
    record Found(BatchObject batch) implements BatchOutcome {
    }

    /** The request is invalid: every field error, nothing stored (400). */
    record Rejected(List<FieldError> errors) implements BatchOutcome {
    }

    /** No such batch (404). */
    record NotFound(String batchId) implements BatchOutcome {
    }

    /** The path holds no batch id (400). */
    record InvalidId() implements BatchOutcome {
    }

    /** The batch has finished and cannot be cancelled (409). */
    record NotCancellable(BatchObject batch) implements BatchOutcome {
    }

    /**
     * The caller already has {@code limit} unfinished batches, or unfinished batch lines ({@code kind}): nothing was
     * accepted (429, with Retry-After).
     */
    record QuotaExceeded(QuotaKind kind, int limit, Duration retryAfter) implements BatchOutcome {
    }

    /** The batch queue (or batches as a whole) is unavailable: nothing was accepted (503). */
    record Unavailable(String message) implements BatchOutcome {
    }

    /**
     * The request conflicts with the batch's state (409): a retry of a batch still running, retried already, or
     * with nothing to retry; {@code error} names the field and code.
     */
    record Conflict(FieldError error) implements BatchOutcome {
    }

    /**
     * One page of a batch's output or error file as it is now (200, JSONL): the lines of chunk {@code page} of
     * {@code pages} that have ended so far, in input order.
     */
    record FilePage(String batchId, String jsonl, int page, int pages) implements BatchOutcome {
    }
}
