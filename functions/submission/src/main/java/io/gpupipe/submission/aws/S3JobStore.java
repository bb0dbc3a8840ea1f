package io.gpupipe.submission.aws;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.submission.JobStore;
import io.gpupipe.submission.exception.StoreUnavailableException;
import java.net.URL;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/** {@link JobStore} on S3: conditional writes with {@code If-None-Match: *} and {@code If-Match: <etag>}. */
public final class S3JobStore implements JobStore {
    private static final String JSON = "application/json";
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;
    private static final String NO_SUCH_KEY = "NoSuchKey";

    private final S3Client s3;
    private final S3Presigner presigner;
    private final String bucket;

    public S3JobStore(S3Client s3, S3Presigner presigner, String bucket) {
        this.s3 = s3;
        this.presigner = presigner;
        this.bucket = bucket;
    }

    @Override
    public Optional<String> createMarker(JobState marker) {
        String key = JobLayout.markerKey(marker.requestId());
        try {
            return Optional.of(s3.putObject(b -> b.bucket(bucket).key(key).contentType(JSON).ifNoneMatch("*"),
                    RequestBody.fromString(JobJson.write(marker))).eTag());
        } catch (S3Exception e) {
            if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT) {
                return Optional.empty();
            }
            throw unavailable("write", key, e);
        } catch (SdkException e) {
            throw unavailable("write", key, e);
        }
    }

    @Override
    public Optional<StoredMarker> readMarker(String requestId) {
        return read(JobLayout.markerKey(requestId))
                .map(bytes -> new StoredMarker(JobJson.read(bytes.asUtf8String(), JobState.class),
                        bytes.response().eTag()));
    }

    @Override
    public Optional<JobResult> readResult(String requestId) {
        return read(JobLayout.resultKey(requestId)).map(bytes -> JobJson.read(bytes.asUtf8String(), JobResult.class));
    }

    @Override
    public boolean replaceMarker(JobState marker, String eTag) {
        String key = JobLayout.markerKey(marker.requestId());
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType(JSON).ifMatch(eTag),
                    RequestBody.fromString(JobJson.write(marker)));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT
                    || e.statusCode() == NOT_FOUND) {
                return false;
            }
            throw unavailable("replace", key, e);
        } catch (SdkException e) {
            throw unavailable("replace", key, e);
        }
    }

    @Override
    public boolean deleteMarker(String requestId, String eTag) {
        // S3 honours If-Match on DeleteObject in general purpose buckets (412 on another ETag, 404 when gone, 409 on
        // a concurrent write): "How to perform conditional deletes", Amazon S3 User Guide. S3Proxy 4.1.0 does too
        // (S3JobStoreTest.deleteMarker_shouldKeepTheMarker_whenAnotherCallRewroteIt). It needs s3:GetObject too.
        String key = JobLayout.markerKey(requestId);
        try {
            s3.deleteObject(b -> b.bucket(bucket).key(key).ifMatch(eTag));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT
                    || e.statusCode() == NOT_FOUND) {
                return false;
            }
            throw unavailable("delete", key, e);
        } catch (SdkException e) {
            throw unavailable("delete", key, e);
        }
    }

    @Override
    public void putPayload(String key, String json) {
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType(JSON), RequestBody.fromString(json));
        } catch (SdkException e) {
            throw unavailable("write", key, e);
        }
    }

    @Override
    public URL presignGet(String key, Duration ttl) {
        return presigner.presignGetObject(p -> p.signatureDuration(ttl)
                .getObjectRequest(g -> g.bucket(bucket).key(key))).url();
    }

    private Optional<ResponseBytes<GetObjectResponse>> read(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            // a missing bucket is a misconfiguration, not an unknown job
            if (e.statusCode() == NOT_FOUND && e.awsErrorDetails() != null
                    && NO_SUCH_KEY.equals(e.awsErrorDetails().errorCode())) {
                return Optional.empty();
            }
            throw unavailable("read", key, e);
        } catch (SdkException e) {
            throw unavailable("read", key, e);
        }
    }

    private StoreUnavailableException unavailable(String action, String key, SdkException e) {
        return new StoreUnavailableException("cannot " + action + " s3://" + bucket + "/" + key + ": "
                + e.getMessage(), e);
    }
}
