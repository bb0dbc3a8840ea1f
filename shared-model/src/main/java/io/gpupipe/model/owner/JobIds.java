package io.gpupipe.model.owner;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.gpupipe.model.Digests;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.RequestIds;

/**
 * Request ids are namespaced per owner: a job submitted over the API is stored (S3 keys, queue messages, results)
 * under a UUID-v4-shaped SHA-256 of its owner and the requestId its client chose, and keeps that client id as
 * {@code clientRequestId}. Two callers may both use one requestId without meeting, and no caller can even address
 * another's job: the id it names derives to a different stored id. Batch lines derive theirs the same way, from their
 * batch and line ({@link io.gpupipe.model.BatchIds}).
 */
public final class JobIds {
    private JobIds() {
    }

    /** The stored id of the job {@code owner} submitted as {@code clientRequestId} (a valid UUID v4, any case). */
    public static String stored(Owner owner, String clientRequestId) {
        if (!RequestIds.isValid(clientRequestId)) {
            throw new IllegalArgumentException("a client requestId is a UUID version 4");
        }
        ArrayNode canonical = JobJson.mapper().createArrayNode().add("job").add(owner.value())
                .add(RequestIds.normalize(clientRequestId));
        return Digests.uuidV4Of(JobJson.write(canonical)).toString();
    }

    /** True when {@code storedId} is the id {@code owner}'s {@code clientRequestId} is stored under. */
    public static boolean isStoredIdOf(String storedId, Owner owner, String clientRequestId) {
        return RequestIds.isValid(clientRequestId) && stored(owner, clientRequestId).equals(storedId);
    }
}
