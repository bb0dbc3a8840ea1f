package io.gpupipe.worker.aws;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.worker.JobStore;
import io.gpupipe.worker.MarkerSnapshot;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The results bucket over S3. The marker is rewritten only over the version read ({@code If-Match: <etag>}, or
 * {@code If-None-Match: *} when there was none), so a cancel landing in between is never overwritten. Terminal
 * objects are written create-only ({@code If-None-Match: *}): 412 means an object is there already, and it is ours
 * only if it holds exactly our bytes (the SDK retried a PUT that S3 had stored); 409 (a concurrent conditional write
 * in progress) is retried until one wins. Other failures are left to the SDK's retry strategy and then surface to
 * the caller.
 */
public final class S3JobStore implements JobStore {
    private static final Logger LOG = Logger.getLogger(S3JobStore.class);
    private static final String JSON = "application/json";
    private static final int CONFLICT_RETRIES = 5;
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;

    private final S3Client s3;
    private final String bucket;

    public S3JobStore(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    @Override
    public boolean resultExists(String requestId) {
        try {
            s3.headObject(b -> b.bucket(bucket).key(JobLayout.resultKey(requestId)));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public Optional<String> readPayload(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    @Override
    public MarkerSnapshot readMarker(String requestId) {
        ResponseBytes<GetObjectResponse> object;
        try {
            object = s3.getObjectAsBytes(b -> b.bucket(bucket).key(JobLayout.markerKey(requestId)));
        } catch (NoSuchKeyException e) {
            return MarkerSnapshot.ABSENT;
        }
        String eTag = object.response().eTag();
        try {
            return MarkerSnapshot.of(JobJson.read(object.asUtf8String(), JobState.class), eTag);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            LOG.warnf("ignoring unreadable marker of %s: %s", requestId, e.getMessage());
            return new MarkerSnapshot(Optional.empty(), Optional.ofNullable(eTag));
        }
    }

    /** 412 (changed), 409 (a concurrent conditional write) and 404 (deleted, under If-Match) all mean: lost. */
    @Override
    public boolean replaceMarker(JobState marker, MarkerSnapshot expected) {
        try {
            s3.putObject(b -> {
                b.bucket(bucket).key(JobLayout.markerKey(marker.requestId())).contentType(JSON);
                expected.eTag().ifPresentOrElse(b::ifMatch, () -> b.ifNoneMatch("*"));
            }, RequestBody.fromString(JobJson.write(marker)));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT
                    || (e.statusCode() == NOT_FOUND && expected.eTag().isPresent())) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public boolean putResultIfAbsent(JobResult result) {
        return putIfAbsent(JobLayout.resultKey(result.requestId()), JSON,
                JobJson.write(result).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean putAudioIfAbsent(String requestId, byte[] wav) {
        return putIfAbsent(JobLayout.audioKey(requestId), "audio/wav", wav);
    }

    @Override
    public Optional<byte[]> readAudioHead(String requestId, int length) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(JobLayout.audioKey(requestId))
                    .range("bytes=0-" + (length - 1))).asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    private boolean putIfAbsent(String key, String contentType, byte[] body) {
        for (int attempt = 1; ; attempt++) {
            try {
                s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType).ifNoneMatch("*"),
                        RequestBody.fromBytes(body));
                return true;
            } catch (S3Exception e) {
                if (e.statusCode() == PRECONDITION_FAILED) {
                    return isOurs(key, body);
                }
                if (e.statusCode() != CONFLICT || attempt >= CONFLICT_RETRIES) {
                    throw e;
                }
                sleepQuietly(50L * attempt);
            }
        }
    }

    private boolean isOurs(String key, byte[] body) {
        try {
            return Arrays.equals(body, s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray());
        } catch (NoSuchKeyException e) {
            return false;
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
