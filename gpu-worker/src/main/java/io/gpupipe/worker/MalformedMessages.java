package io.gpupipe.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobRequestParser;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A message the shared validator rejects (malformed, or a task the tier does not serve): the client gets a
 * {@code failed}/{@code invalid_request} result listing every field error (when the body carried a valid requestId),
 * the raw body goes to the DLQ with the reason.
 */
final class MalformedMessages {
    private final Tier tier;
    private final String taskArn;
    private final TierQueue queue;
    private final WorkerJobStore store;
    private final Clock clock;

    MalformedMessages(Tier tier, String taskArn, TierQueue queue, WorkerJobStore store, Clock clock) {
        this.tier = tier;
        this.taskArn = taskArn;
        this.queue = queue;
        this.store = store;
        this.clock = clock;
    }

    /** Returns the event of the rejection; the caller deletes the message. */
    JobEvent reject(JobContext context, JobRequestParser.Outcome.Invalid invalid) {
        List<FieldError> errors = invalid.errors();
        String reasons = errors.stream().map(e -> e.field() + " " + e.code() + " (" + e.message() + ")")
                .collect(Collectors.joining("; "));
        String reason = ErrorCodes.INVALID_REQUEST + ": " + reasons;
        Optional<JsonNode> body = readTree(context.message().body());
        Task task = body.flatMap(b -> fieldIfValid(b, "task", errors)).flatMap(Task::fromWireName).orElse(null);
        String callbackUrl = body.flatMap(b -> fieldIfValid(b, "callbackUrl", errors)).orElse(null);
        invalid.requestId().ifPresent(id -> store.putResultIfAbsent(JobResult.failed(id, task, callbackUrl,
                new JobResult.JobError(ErrorCodes.INVALID_REQUEST, "the job message is invalid: " + reasons, errors),
                context.provenance(tier, null, taskArn, clock), clock.instant())));
        queue.sendToDeadLetterQueue(context.message(), reason);
        String requestId = invalid.requestId().orElse("unknown");
        return new JobEvent(requestId, tier, task, JobOutcome.INVALID, ErrorCodes.INVALID_REQUEST,
                context.attempts(), context.queueWaitMs(), 0, context.processingMs(clock), 0, 0, 0, null, null,
                taskArn);
    }

    private static Optional<JsonNode> readTree(String body) {
        try {
            JsonNode node = JobJson.mapper().readTree(body);
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /**
     * A text field the validator did not complain about, so it can be echoed in the result. A task the tier does not
     * serve is still the job's task.
     */
    private static Optional<String> fieldIfValid(JsonNode body, String field, List<FieldError> errors) {
        JsonNode node = body.get(field);
        boolean rejected = errors.stream().anyMatch(e -> e.field().equals(field)
                && !ErrorCodes.NOT_SERVED.equals(e.code()));
        return node != null && node.isTextual() && !rejected ? Optional.of(node.textValue()) : Optional.empty();
    }
}
