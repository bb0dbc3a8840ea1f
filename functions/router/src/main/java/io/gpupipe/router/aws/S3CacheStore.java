package io.gpupipe.router.aws;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.submission.exception.StoreUnavailableException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** {@link CacheStore} on S3: {@code cache/} entries, CopyObject for audio, create-only result writes. */
public final class S3CacheStore implements CacheStore {
    private static final Logger LOG = Logger.getLogger(S3CacheStore.class);
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;

    private final S3Client s3;
    private final String bucket;

    public S3CacheStore(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    @Override
    public Optional<CacheEntry> readEntry(CacheKey key) {
        String object = JobLayout.cacheEntryKey(key);
        String json;
        try {
            json = s3.getObjectAsBytes(b -> b.bucket(bucket).key(object)).asUtf8String();
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw unavailable("read", object, e);
        }
        try {
            return Optional.of(JobJson.read(json, CacheEntry.class));
        } catch (UncheckedIOException | IllegalArgumentException e) {
            LOG.warnf("ignoring the unreadable cache entry %s: %s", object, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Create-only at the destination: CopyObject takes {@code If-None-Match: *} ("copies the object only if the object
     * key name at the destination does not already exist", 412 otherwise, 409 on a concurrent write; S3 API
     * reference, CopyObject), so a hit never replaces audio a result already names.
     */
    @Override
    public boolean copy(String fromKey, String toKey) {
        try {
            s3.copyObject(b -> b.sourceBucket(bucket).sourceKey(fromKey).destinationBucket(bucket)
                    .destinationKey(toKey).ifNoneMatch("*"));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND || e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT) {
                return false;
            }
            throw unavailable("copy " + fromKey + " to", toKey, e);
        } catch (SdkException e) {
            throw unavailable("copy " + fromKey + " to", toKey, e);
        }
    }

    @Override
    public boolean createResult(JobResult result) {
        String key = JobLayout.resultKey(result.requestId());
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/json").ifNoneMatch("*"),
                    RequestBody.fromString(JobJson.write(result)));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT) {
                return false;
            }
            throw unavailable("write", key, e);
        } catch (SdkException e) {
            throw unavailable("write", key, e);
        }
    }

    private StoreUnavailableException unavailable(String action, String key, SdkException e) {
        return new StoreUnavailableException("cannot " + action + " s3://" + bucket + "/" + key + ": "
                + e.getMessage(), e);
    }
}
