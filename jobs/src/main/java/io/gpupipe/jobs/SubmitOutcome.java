package io.gpupipe.jobs;

import io.gpupipe.model.FieldError;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobView;
import io.gpupipe.model.routing.RoutingDecision;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What became of a submission. */
public sealed interface SubmitOutcome {
    /** New job: marker written, message sent (202). */
    record Accepted(InferenceJob job, RoutingDecision decision) implements SubmitOutcome {
    }

    /**
     * The requestId was already submitted: the job's current status (200). Enqueued again only when its marker still
     * read {@code queued} with no result (see JobService#submit).
     */
    record Duplicate(JobView view) implements SubmitOutcome {
    }

    /**
     * Answered from the result cache: the job's result is already stored (marked {@code cached: true}), nothing was
     * enqueued and no model ran (200, with the result).
     */
    record Cached(JobView view) implements SubmitOutcome {
    }

    /** The request is invalid: every field error, nothing stored or enqueued (400). */
    record Rejected(List<FieldError> errors, Optional<String> requestId) implements SubmitOutcome {
    }

    /**
     * The job's owner already has {@code limit} unfinished jobs: nothing stored or enqueued (429, with
     * {@code Retry-After}).
     */
    record QuotaExceeded(String requestId, int limit, Duration retryAfter) implements SubmitOutcome {
    }

    /** The job could not be enqueued; its marker was taken back when possible, and the client may retry (503). */
    record Unavailable(String requestId, String message) implements SubmitOutcome {
    }
}
