package io.gpupipe.localstack.console;

import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.Owner;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the console knows of one job: the request and answer the API saw (none for a job sent straight to a queue),
 * which of its objects S3 reported written, and the marker and result last read from S3. Guarded by
 * {@link RecentJobs}.
 */
final class JobEntry {
    /** The id the job is stored under (S3 keys, queue messages). */
    final String requestId;
    /** The id its client chose, when the API answered it (jobs are stored under an id derived from it and its caller). */
    String clientRequestId;
    /** Its caller, when the API answered it (null: a token without a subject, or not seen by the API). */
    Owner owner;
    final Instant firstSeenAt;
    byte[] request;
    String answeredTier;
    int markerWrites;
    boolean resultWritten;
    boolean audio;
    final Set<String> notifications = new TreeSet<>();
    /** Marker writes already read; the marker is read again only after a newer write. */
    int markerWritesRead;
    JobState marker;
    JobResult result;
    String promptExcerpt;

    JobEntry(String requestId, Instant firstSeenAt) {
        this.requestId = requestId;
        this.firstSeenAt = firstSeenAt;
    }

    /** True when S3 holds something newer than what was last read (a result is final: never read again). */
    boolean stale() {
        return result == null && (markerWrites > markerWritesRead || resultWritten);
    }

    /** Its owner as the API's answer, else its marker or result names it (null: not known yet). */
    String ownerValue() {
        if (owner != null) {
            return owner.value();
        }
        if (result != null && result.owner() != null) {
            return result.owner();
        }
        return marker == null ? null : marker.owner();
    }

    /** The id its client knows it by (the console's pages and links use it), else the stored one. */
    String shownId() {
        return clientRequestId != null ? clientRequestId : requestId;
    }
}
