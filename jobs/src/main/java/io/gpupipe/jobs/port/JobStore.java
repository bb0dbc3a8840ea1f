package io.gpupipe.jobs.port;

import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.JobView;
import java.net.URL;
import java.time.Duration;
import java.util.Optional;

/**
 * The job documents in the results bucket ({@link io.gpupipe.model.job.JobLayout}): the marker, written create-only and
 * replaced conditionally, and the terminal result. Failures to reach the store throw
 * {@link io.gpupipe.jobs.port.StoreUnavailableException}. A caller reads its own jobs through an {@link OwnedJobStore}.
 */
public interface JobStore {
    /**
     * Writes the marker only if none exists ({@code If-None-Match: *}): the ETag of the marker written, or empty when
     * one already existed.
     */
    Optional<String> createMarker(JobState marker);

    /** The marker and its ETag, or empty when the job has none. */
    Optional<StoredMarker> readMarker(String requestId);

    /** The terminal result, or empty when the job has not finished. */
    Optional<JobResult> readResult(String requestId);

    /** Replaces the marker only if it still carries {@code eTag} ({@code If-Match}); false when it changed. */
    boolean replaceMarker(JobState marker, String eTag);

    /**
     * Removes the marker only if it is still the version {@code eTag} names ({@code If-Match} on DeleteObject), so a
     * take-back never removes a marker another call rewrote; false when it changed or is gone.
     */
    boolean deleteMarker(String requestId, String eTag);

    /** Writes a claim-check payload ({@code payloads/{id}.json}) that a queue message points at. */
    void putPayload(String key, String json);

    /** A presigned GET URL for an object of the bucket, valid for {@code ttl}. */
    URL presignGet(String key, Duration ttl);

    /** The S3 URI of an object of the bucket ({@code s3://bucket/key}), for readers of the bucket itself. */
    String location(String key);

    /** What a client sees of the job now (result over marker); empty when it is unknown. */
    default Optional<JobView> view(String requestId) {
        return JobView.of(requestId, readMarker(requestId).map(StoredMarker::state), readResult(requestId));
    }

    /** A marker as read, with the ETag that makes a conditional replace possible. */
    record StoredMarker(JobState state, String eTag) {
    }
}
