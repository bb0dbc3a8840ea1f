package io.gpupipe.model.seal;

import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import java.util.Optional;

/**
 * Who sent a job message, as far as a consumer can prove it, and so whose job it is. Only a message sealed with the
 * deployment key ({@link MessageSeal}) was sent by the router or the batch function; only such a message may name an
 * API caller's {@code owner}, a {@code clientRequestId}, or the stored id it is kept under. Any other message is its
 * producer's: the job belongs to {@link Owner#QUEUE} (which no API caller is) and its {@code requestId} is that
 * owner's client id, stored under the id derived from both ({@link #producerKey}) exactly as an API caller's is, so
 * whatever {@code owner} or {@code requestId} its body names, it can neither reach nor change an API caller's job.
 */
public enum MessageOrigin {
    /** Sealed by the router or the batch function: owner, client id and stored id are taken as written. */
    SEALED,
    /** Sent by anyone else allowed {@code sqs:SendMessage}: the queue owner's, its requestId namespaced. */
    PRODUCER;

    /**
     * The origin of a message with body {@code body} and seal attribute {@code seal} (null when absent), judged by
     * {@code seals} (empty where no deployment key is configured: then nothing is trusted).
     */
    public static MessageOrigin of(Optional<MessageSeal> seals, String body, String seal) {
        return seals.map(s -> s.verifies(body, seal)).orElse(false) ? SEALED : PRODUCER;
    }

    /** The key of a producer's job that names {@code requestId} (a valid UUID v4): the queue owner's, namespaced. */
    public static JobKey producerKey(String requestId) {
        return JobKey.submitted(Owner.QUEUE, requestId);
    }
}
