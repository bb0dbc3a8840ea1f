package io.gpupipe.deadletter.domain;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.RequestIds;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.QueuedJob;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.seal.MessageOrigin;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the dead-letter handler can read from a message body on the job DLQ: a job it can answer for (its requestId,
 * and the task and callback URL when the body carries valid ones), or a body it cannot attribute to any job, known
 * only by its SHA-256. Both message forms carry {@code requestId} at the top level: the job itself and a claim-check
 * pointer to its payload in S3, so the id is read from that field without needing the rest of the job.
 */
public sealed interface DeadLetter {

    /**
     * A dead-lettered job: fields the validator did not reject are echoed into its {@code failed} result, its owner
     * and client id too (both message forms carry them at the top level), so the owner's quota is settled and its
     * client is told under the id it knows.
     */
    record Readable(String requestId, Task task, String callbackUrl, String owner, String clientRequestId)
            implements DeadLetter {
        public Readable {
            if (!RequestIds.isValid(requestId)) {
                throw new IllegalArgumentException("requestId must be a UUID version 4");
            }
        }

        /**
         * The {@code failed}/{@code dead_lettered} result: {@code receiveCount} is the message's
         * ApproximateReceiveCount as the DLQ reports it, {@code reason} the worker's ErrorReason attribute if any.
         */
        public JobResult failedResult(Tier tier, int receiveCount, String reason, Instant now) {
            String message = "no worker finished the job: SQS moved it to the dead-letter queue after "
                    + receiveCount + " receive(s)" + (reason == null || reason.isBlank() ? "" : " (" + reason + ")");
            return JobResult.failed(requestId, task, callbackUrl, JobResult.JobError.of(ErrorCodes.DEAD_LETTERED,
                    message), new JobResult.Provenance(tier, null, null, null, receiveCount, null, null), now)
                    .withOwner(owner, clientRequestId);
        }
    }

    /** A body with no readable requestId: kept on the DLQ for an operator, identified by its hash in logs. */
    record Unreadable(String bodySha256, String reason) implements DeadLetter {
    }

    /** Reads a DLQ message body as its sender wrote it (a sealed message's reading); never throws. */
    static DeadLetter read(String body) {
        return read(body, MessageOrigin.SEALED);
    }

    /**
     * Reads a DLQ message body of {@code origin}; never throws. A producer's message (unsealed) is the queue owner's,
     * under the id derived from that owner and the requestId it names, as the worker read it ({@link MessageOrigin}),
     * whatever owner or client id it names: its failed result can never land on an API caller's job.
     */
    static DeadLetter read(String body, MessageOrigin origin) {
        JsonNode tree;
        try {
            tree = body == null ? null : JobJson.mapper().readTree(body);
        } catch (Exception e) {
            return new Unreadable(sha256(body), "body is not JSON");
        }
        if (tree == null || !tree.isObject()) {
            return new Unreadable(sha256(body), "body is not a JSON object");
        }
        JsonNode id = tree.get("requestId");
        if (id == null || !id.isTextual() || !RequestIds.isValid(id.textValue())) {
            return new Unreadable(sha256(body), "body has no valid requestId");
        }
        List<FieldError> errors = new JobRequestParser().parse(tree, JobRequestParser.Source.QUEUE)
                instanceof JobRequestParser.Outcome.Invalid invalid ? invalid.errors() : List.of();
        Task task = validText(tree, "task", errors).flatMap(Task::fromWireName).orElse(null);
        if (origin == MessageOrigin.PRODUCER) {
            JobKey key = MessageOrigin.producerKey(id.textValue());
            return new Readable(key.storedId(), task, validText(tree, "callbackUrl", errors).orElse(null),
                    Owner.QUEUE.value(), key.clientRequestId());
        }
        String requestId = RequestIds.normalize(id.textValue());
        String owner = validText(tree, "owner", errors).filter(Owner::isValid).orElse(null);
        String clientId = validText(tree, "clientRequestId", errors).filter(c -> owner != null
                && JobIds.isStoredIdOf(requestId, new Owner(owner), c)).map(RequestIds::normalize)
                .orElse(null);
        return new Readable(requestId, task, validText(tree, "callbackUrl", errors).orElse(null), owner, clientId);
    }

    /**
     * True when {@code marker} is held by another job than the one {@code letter} (read from {@code body} of
     * {@code origin}) names: another owner's, or, where the body is the job itself, another request (digest). Its
     * result is then its holder's to write.
     */
    static boolean heldByAnother(Readable letter, String body, MessageOrigin origin, JobState marker) {
        if (!Objects.equals(marker.owner(), letter.owner())) {
            return true;
        }
        QueuedJob job = QueuedJob.read(body, key -> Optional.empty(), TierCatalogue.bundled(), null, origin);
        return job instanceof QueuedJob.Valid valid && marker.heldByAnother(valid.job());
    }

    /** Lower-case hex SHA-256 of the body's UTF-8 bytes (of the empty string when there is no body). */
    static String sha256(String body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((body == null ? "" : body).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static Optional<String> validText(JsonNode body, String field, List<FieldError> errors) {
        JsonNode node = body.get(field);
        boolean rejected = errors.stream().anyMatch(e -> e.field().equals(field));
        return node != null && node.isTextual() && !rejected ? Optional.of(node.textValue()) : Optional.empty();
    }
}
