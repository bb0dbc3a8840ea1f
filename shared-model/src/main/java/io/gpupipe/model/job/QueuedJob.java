package io.gpupipe.model.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.RequestIds;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.seal.MessageOrigin;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A job message of a tier queue (or the claim-check payload it points at), read once: the job's fields are judged
 * as a client's request is ({@link JobFields}), and the message's own fields by the queue's rules: a requestId is
 * required, {@code submittedAt} and {@code batch} are read, and a task the consuming tier does not serve is refused.
 * Whose job it is depends on its {@link MessageOrigin}: a sealed message (the router's, the batch function's) keeps
 * its {@code owner}, {@code clientRequestId} and stored id; any other is the queue owner's, its requestId namespaced
 * ({@link MessageOrigin#producerKey}). A malformed message keeps what it validly named, so its failed result reaches
 * its client (a producer's under its namespaced id).
 */
public sealed interface QueuedJob {

    /** A message whose job can run. */
    record Valid(InferenceJob job) implements QueuedJob {
        public Valid {
            Objects.requireNonNull(job, "job");
        }
    }

    /**
     * A message that cannot run: every field error, and the requestId, task and callbackUrl it named validly (a task
     * the tier does not serve is still the job's task).
     */
    record Malformed(List<FieldError> errors, Optional<String> requestId, Optional<Task> task,
                     Optional<String> callbackUrl) implements QueuedJob {
        public Malformed {
            errors = List.copyOf(errors);
            if (errors.isEmpty()) {
                throw new IllegalArgumentException("a malformed message has at least one field error");
            }
        }

        /** The errors as one line ("field code (message); ..."), for logs and the dead-letter reason. */
        public String reasons() {
            return String.join("; ", errors.stream().map(e -> e.field() + " " + e.code() + " (" + e.message() + ")")
                    .toList());
        }
    }

    /**
     * Reads the message body {@code json} taken from the queue of {@code consumer} (null: any tier's) as its sender
     * wrote it ({@link MessageOrigin#SEALED}).
     */
    static QueuedJob read(String json, TierCatalogue tiers, Tier consumer) {
        return read(json, key -> Optional.empty(), tiers, consumer);
    }

    /** As {@link #read(String, Function, TierCatalogue, Tier, MessageOrigin)}, for a sealed message. */
    static QueuedJob read(String json, Function<String, Optional<String>> payloads, TierCatalogue tiers,
                          Tier consumer) {
        return read(json, payloads, tiers, consumer, MessageOrigin.SEALED);
    }

    /**
     * Reads the message body {@code json} taken from the queue of {@code consumer}, each document once: a claim
     * check ({@link JobMessage#payloadKey}) is replaced by the payload {@code payloads} returns for its key; a
     * payload that is gone leaves the pointer itself to be judged, which fails (it has no prompt). {@code origin}
     * decides whose job it is (the seal covers the body as sent, the pointer of a claim check).
     */
    static QueuedJob read(String json, Function<String, Optional<String>> payloads, TierCatalogue tiers,
                          Tier consumer, MessageOrigin origin) {
        JsonBodies.Either body = JsonBodies.read(json);
        if (body.failure().isPresent()) {
            return malformedBody(body.failure().get());
        }
        Optional<JsonBodies.Either> payload = JobMessage.payloadKey(body.object()).flatMap(payloads)
                .map(JsonBodies::read);
        if (payload.isPresent() && payload.get().failure().isPresent()) {
            return malformedBody(payload.get().failure().get());
        }
        return read(payload.map(JsonBodies.Either::object).orElse(body.object()), tiers, consumer, origin);
    }

    /** Reads a parsed, sealed message body taken from the queue of {@code consumer} (null: any tier's). */
    static QueuedJob read(JsonNode json, TierCatalogue tiers, Tier consumer) {
        return read(json, tiers, consumer, MessageOrigin.SEALED);
    }

    /** Reads a parsed message body of {@code origin} taken from the queue of {@code consumer} (null: any tier's). */
    static QueuedJob read(JsonNode json, TierCatalogue tiers, Tier consumer, MessageOrigin origin) {
        JsonBodies.Either body = JsonBodies.object(json);
        if (body.failure().isPresent()) {
            return malformedBody(body.failure().get());
        }
        var errors = new ArrayList<FieldError>();
        var fields = new FieldReader(json, errors);
        String named = readRequestId(fields);
        // a producer's requestId is its own client id: the job is stored under the id derived from the queue owner
        JobKey producer = origin == MessageOrigin.PRODUCER && named != null ? MessageOrigin.producerKey(named) : null;
        String requestId = producer != null ? producer.storedId() : named;
        JobFields job = JobFields.read(fields, tiers, consumer, false);
        Instant submittedAt = readSubmittedAt(fields);
        BatchMember batch = readBatch(fields, requestId);
        JobKey key = switch (origin) {
            case SEALED -> readKey(fields, requestId, readOwner(fields));
            case PRODUCER -> producer; // whatever owner or clientRequestId the body names
        };
        if (!errors.isEmpty()) {
            boolean taskRefused = errors.stream().anyMatch(e -> e.field().equals("task")
                    && !ErrorCodes.NOT_SERVED.equals(e.code()));
            boolean callbackRefused = errors.stream().anyMatch(e -> e.field().equals("callbackUrl"));
            return new Malformed(errors, Optional.ofNullable(requestId),
                    taskRefused || fields.isAbsent("task") ? Optional.empty() : Optional.of(job.task()),
                    callbackRefused ? Optional.empty() : Optional.ofNullable(job.callbackUrl()));
        }
        return new Valid(job.toJob(key, submittedAt, batch));
    }

    private static Malformed malformedBody(FieldError error) {
        return new Malformed(List.of(error), Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static String readRequestId(FieldReader fields) {
        Optional<String> raw = fields.string("requestId");
        if (raw.isPresent() && RequestIds.isValid(raw.get())) {
            return RequestIds.normalize(raw.get());
        }
        if (raw.isPresent()) {
            fields.error("requestId", ErrorCodes.INVALID_FORMAT, "requestId must be a UUID version 4");
        } else if (fields.isAbsent("requestId")) {
            fields.error("requestId", ErrorCodes.REQUIRED, "requestId is required");
        }
        return null;
    }

    private static Instant readSubmittedAt(FieldReader fields) {
        Optional<String> text = fields.string("submittedAt");
        try {
            return text.map(Instant::parse).orElse(null);
        } catch (DateTimeParseException e) {
            fields.error("submittedAt", ErrorCodes.INVALID_FORMAT, "submittedAt must be an ISO-8601 instant");
            return null;
        }
    }

    /**
     * The batch line a message's job is (written by the batch function). Only a well-formed membership whose line
     * id is the message's requestId is taken, so a message sent straight to a queue cannot count as a line of
     * another batch under its own id.
     */
    private static BatchMember readBatch(FieldReader fields, String requestId) {
        if (fields.isAbsent("batch")) {
            return null;
        }
        try {
            BatchMember member = JobJson.mapper().treeToValue(fields.node("batch"), BatchMember.class);
            if (member != null && (requestId == null || member.requestId().equals(requestId))) {
                return member;
            }
        } catch (JsonProcessingException | IllegalArgumentException e) {
            // reported below
        }
        fields.error("batch", ErrorCodes.INVALID_VALUE, "batch must be {batchId, chunk, line, chunkLines} naming "
                + "the line whose job id is the requestId");
        return null;
    }

    /** The owner: absent is {@link Owner#QUEUE}'s job; present, one of the two forms an owner takes. */
    private static String readOwner(FieldReader fields) {
        Optional<String> owner = fields.string("owner");
        if (owner.isPresent() && !Owner.isValid(owner.get())) {
            fields.error("owner", ErrorCodes.INVALID_FORMAT, "owner must be hmac-sha256: or sha256: and 64 lower-case"
                    + " hex digits, or queue");
            return null;
        }
        return owner.orElse(null);
    }

    /**
     * The job's key. A {@code clientRequestId} is taken only with an owner, and only on the job stored under the id
     * derived from both ({@link JobKey#of}), so that no message can show a job to a client under another id.
     */
    private static JobKey readKey(FieldReader fields, String requestId, String owner) {
        Optional<String> clientId = fields.string("clientRequestId");
        if (clientId.isPresent() && !RequestIds.isValid(clientId.get())) {
            fields.error("clientRequestId", ErrorCodes.INVALID_FORMAT, "clientRequestId must be a UUID version 4");
            return null;
        }
        if (clientId.isEmpty()) {
            return requestId == null ? null : JobKey.of(requestId, owner, null);
        }
        try {
            return JobKey.of(requestId, owner, clientId.get());
        } catch (IllegalArgumentException e) {
            fields.error("clientRequestId", ErrorCodes.INVALID_VALUE, "clientRequestId needs an owner, and the "
                    + "requestId derived from both (the id the router stores an API job under)");
            return null;
        }
    }
}
