package io.gpupipe.submission.aws;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.submission.JobStore;
import java.net.URL;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/** {@link JobStore} on S3: conditional writes with {@code If-None-Match: *} and {@code If-Match: <etag>}. */
public final class S3JobStore implements JobStore {
    private static final String JSON = "application/json";

    private final S3Objects objects;

    public S3JobStore(S3Client s3, S3Presigner presigner, String bucket) {
        this.objects = new S3Objects(s3, presigner, bucket);
    }

    @Override
    public Optional<String> createMarker(JobState marker) {
        return objects.createOnly(JobLayout.markerKey(marker.requestId()), JSON,
                RequestBody.fromString(JobJson.write(marker)));
    }

    @Override
    public Optional<StoredMarker> readMarker(String requestId) {
        return objects.read(JobLayout.markerKey(requestId))
                .map(bytes -> new StoredMarker(JobJson.read(bytes.asUtf8String(), JobState.class),
                        bytes.response().eTag()));
    }

    @Override
    public Optional<JobResult> readResult(String requestId) {
        return objects.read(JobLayout.resultKey(requestId))
                .map(bytes -> JobJson.read(bytes.asUtf8String(), JobResult.class));
    }

    @Override
    public boolean replaceMarker(JobState marker, String eTag) {
        return objects.replace(JobLayout.markerKey(marker.requestId()), JSON, JobJson.write(marker), eTag);
    }

    @Override
    public boolean deleteMarker(String requestId, String eTag) {
        // S3 honours If-Match on DeleteObject in general purpose buckets (412 on another ETag, 404 when gone, 409 on
        // a concurrent write): "How to perform conditional deletes", Amazon S3 User Guide. S3Proxy 4.1.0 does too
        // (S3JobStoreTest.deleteMarker_shouldKeepTheMarker_whenAnotherCallRewroteIt). It needs s3:GetObject too.
        return objects.delete(JobLayout.markerKey(requestId), eTag);
    }

    @Override
    public void putPayload(String key, String json) {
        objects.put(key, JSON, RequestBody.fromString(json));
    }

    @Override
    public URL presignGet(String key, Duration ttl) {
        return objects.presignGet(key, ttl);
    }
}
