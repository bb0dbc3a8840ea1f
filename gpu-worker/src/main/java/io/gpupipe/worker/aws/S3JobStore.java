package io.gpupipe.worker.aws;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.worker.JobStore;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The results bucket over S3. Terminal objects are written create-only ({@code If-None-Match: *}): 412 means an
 * object is there already, and it is ours only if it holds exactly our bytes (the SDK retried a PUT that S3 had
 * stored); 409 (a concurrent conditional write in progress) is retried until one wins. Other failures are left to
 * the SDK's retry strategy and then surface to the caller.
 */
public final class S3JobStore implements JobStore {
    private static final Logger LOG = Logger.getLogger(S3JobStore.class);
    private static final String JSON = "application/json";
    private static final int CONFLICT_RETRIES = 5;

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
            if (e.statusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public Optional<JobState> readMarker(String requestId) {
        try {
            String json = s3.getObjectAsBytes(b -> b.bucket(bucket).key(JobLayout.markerKey(requestId)))
                    .asUtf8String();
            return Optional.of(JobJson.read(json, JobState.class));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (UncheckedIOException | IllegalArgumentException e) {
            LOG.warnf("ignoring unreadable marker of %s: %s", requestId, e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public void writeMarker(JobState marker) {
        s3.putObject(b -> b.bucket(bucket).key(JobLayout.markerKey(marker.requestId())).contentType(JSON),
                RequestBody.fromString(JobJson.write(marker)));
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
                if (e.statusCode() == 412) {
                    return isOurs(key, body);
                }
                if (e.statusCode() != 409 || attempt >= CONFLICT_RETRIES) {
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
