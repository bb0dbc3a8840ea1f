package io.gpupipe.worker.aws;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.worker.CacheStore;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The result cache on S3 ({@code cache/} of the results bucket): entries created with {@code If-None-Match: *}, so
 * the first success of a key stays its answer until the lifecycle rule expires it. 412 and 409 (another
 * conditional write of the same key in progress) both mean another worker's entry is, or is about to be, there.
 */
public final class S3CacheStore implements CacheStore {
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;

    private final S3Client s3;
    private final String bucket;

    public S3CacheStore(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    @Override
    public boolean putEntryIfAbsent(CacheEntry entry) {
        String key = JobLayout.cacheEntryKey(new CacheKey(entry.key()));
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/json").ifNoneMatch("*"),
                    RequestBody.fromString(JobJson.write(entry)));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public void copy(String fromKey, String toKey) {
        s3.copyObject(b -> b.sourceBucket(bucket).sourceKey(fromKey).destinationBucket(bucket).destinationKey(toKey));
    }

    @Override
    public void delete(String key) {
        s3.deleteObject(b -> b.bucket(bucket).key(key));
    }
}
