package io.gpupipe.model.owner;

import io.gpupipe.model.RequestIds;
import java.util.Objects;
import java.util.Optional;

/**
 * Who a job is and where it lives, as one value: its {@link Owner} (none for a request not yet submitted), the id
 * its client chose over the API ({@code clientRequestId}, none for a job sent straight to a queue or a batch line)
 * and the id it is stored under (S3 keys, queue messages, results). The stored id of an API job is derived from its
 * owner and client id ({@link JobIds#stored}); it is computed (or checked) once, where the key is made, so a job's
 * copies carry it without hashing again. Each field means one thing from the request to the result: an API request
 * not yet submitted ({@link #requested}) has its client's id and no stored id yet, never the client's id in the
 * stored id's place.
 */
public final class JobKey {
    private final Owner owner;
    private final String clientRequestId;
    private final String storedId;

    private JobKey(Owner owner, String clientRequestId, String storedId) {
        this.owner = owner;
        this.clientRequestId = clientRequestId;
        this.storedId = storedId;
    }

    /**
     * An API request for the job its client names {@code clientRequestId} (a UUID v4, any case), not yet submitted:
     * no owner and so no stored id until {@link #submittedBy}.
     */
    public static JobKey requested(String clientRequestId) {
        if (!RequestIds.isValid(clientRequestId)) {
            throw new IllegalArgumentException("a requestId is a UUID version 4, got " + clientRequestId);
        }
        return new JobKey(null, RequestIds.normalize(clientRequestId), null);
    }

    /** The job {@code owner} submitted as {@code clientRequestId} (a UUID v4, any case), under the derived id. */
    public static JobKey submitted(Owner owner, String clientRequestId) {
        String storedId = JobIds.stored(Objects.requireNonNull(owner, "owner"), clientRequestId);
        return new JobKey(owner, RequestIds.normalize(clientRequestId), storedId);
    }

    /** A job stored under {@code storedId} itself, with no client id; {@code owner} may be null (none yet). */
    public static JobKey stored(String storedId, Owner owner) {
        if (storedId == null) {
            throw new IllegalArgumentException("a job needs the id it is stored under");
        }
        return new JobKey(owner, null, storedId);
    }

    /**
     * The key a document or message names with its three fields (owner and client id may be null). A client id is
     * taken only with an owner and on the id derived from both, so nothing can show a job to a client under another.
     */
    public static JobKey of(String storedId, String owner, String clientRequestId) {
        if (owner != null && !Owner.isValid(owner)) {
            throw new IllegalArgumentException("owner is sha256:<hex> or queue, got " + owner);
        }
        Owner by = owner == null ? null : new Owner(owner);
        if (clientRequestId == null) {
            return stored(storedId, by);
        }
        if (by == null || !JobIds.isStoredIdOf(storedId, by, clientRequestId)) {
            throw new IllegalArgumentException("a job with a clientRequestId is stored under the id derived from its"
                    + " owner and that clientRequestId");
        }
        return new JobKey(by, RequestIds.normalize(clientRequestId), storedId);
    }

    /** This key owned by {@code by}, under the same stored id and with no client id (a batch line's). */
    public JobKey ownedBy(Owner by) {
        return new JobKey(Objects.requireNonNull(by, "owner"), null, requireStored());
    }

    /** The key of this request once {@code by} submitted it: stored under the id derived from both. */
    public JobKey submittedBy(Owner by) {
        if (!isRequested()) {
            throw new IllegalStateException("only a request not yet submitted is submitted, not " + this);
        }
        return submitted(by, clientRequestId);
    }

    /** True for an API request not yet submitted ({@link #requested}): it has no stored id yet. */
    public boolean isRequested() {
        return storedId == null;
    }

    /** The id the job is stored under; a request not yet submitted has none ({@link #isRequested}). */
    public String storedId() {
        return requireStored();
    }

    private String requireStored() {
        if (storedId == null) {
            throw new IllegalStateException("the request " + clientRequestId + " is not submitted yet: no stored id");
        }
        return storedId;
    }

    /** The job's owner; empty before it is submitted. */
    public Optional<Owner> owner() {
        return Optional.ofNullable(owner);
    }

    /** The id the client chose over the API; null for a job that has none. */
    public String clientRequestId() {
        return clientRequestId;
    }

    /** The id the job's client knows it by: the one it chose, else the stored one. */
    public String visibleId() {
        return clientRequestId != null ? clientRequestId : storedId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobKey other && Objects.equals(storedId, other.storedId)
                && Objects.equals(owner, other.owner) && Objects.equals(clientRequestId, other.clientRequestId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(storedId, clientRequestId);
    }

    @Override
    public String toString() {
        if (isRequested()) {
            return "request " + clientRequestId;
        }
        return clientRequestId == null ? storedId : storedId + " (" + owner + " " + clientRequestId + ")";
    }
}
