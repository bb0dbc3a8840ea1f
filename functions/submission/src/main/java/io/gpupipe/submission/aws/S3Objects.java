package io.gpupipe.submission.aws;

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

/**
 * The S3 calls every store here is made of, with S3's conditional-write answers read once: create-only writes
 * ({@code If-None-Match: *}), replaces and deletes conditional on an ETag ({@code If-Match}); 412 when the condition
 * fails, 409 on a concurrent write to the same key, 404 when the object is gone ("Conditional requests", Amazon S3
 * User Guide). Any other failure is {@link StoreUnavailableException}.
 */
public final class S3Objects {
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;
    private static final String NO_SUCH_KEY = "NoSuchKey";

    private final S3Client s3;
    private final S3Presigner presigner;
    private final String bucket;

    /** {@code presigner} may be null where nothing is presigned (the batch function's files). */
    public S3Objects(S3Client s3, S3Presigner presigner, String bucket) {
        this.s3 = s3;
        this.presigner = presigner;
        this.bucket = bucket;
    }

    public String bucket() {
        return bucket;
    }

    /** Writes {@code body} only if no object is at {@code key}: its ETag, or empty when one is. */
    public Optional<String> createOnly(String key, String contentType, RequestBody body) {
        try {
            return Optional.of(s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType)
                    .ifNoneMatch("*"), body).eTag());
        } catch (S3Exception e) {
            if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT) {
                return Optional.empty();
            }
            throw unavailable("write", key, e);
        } catch (SdkException e) {
            throw unavailable("write", key, e);
        }
    }

    /**
     * Copies {@code fromKey} to {@code toKey} only if nothing is at {@code toKey}: CopyObject takes
     * {@code If-None-Match: *} ("copies the object only if the object key name at the destination does not already
     * exist", 412 otherwise, 409 on a concurrent write; S3 API reference, CopyObject). False when the destination
     * exists or the source is gone (404).
     */
    public boolean copyCreateOnly(String fromKey, String toKey) {
        try {
            s3.copyObject(b -> b.sourceBucket(bucket).sourceKey(fromKey).destinationBucket(bucket)
                    .destinationKey(toKey).ifNoneMatch("*"));
            return true;
        } catch (S3Exception e) {
            if (isConditionFailure(e)) {
                return false;
            }
            throw unavailable("copy " + fromKey + " to", toKey, e);
        } catch (SdkException e) {
            throw unavailable("copy " + fromKey + " to", toKey, e);
        }
    }

    /** Writes {@code body} only over the version {@code eTag} names; false when it changed or is gone. */
    public boolean replace(String key, String contentType, String body, String eTag) {
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType).ifMatch(eTag),
                    RequestBody.fromString(body));
            return true;
        } catch (S3Exception e) {
            if (isConditionFailure(e)) {
                return false;
            }
            throw unavailable("replace", key, e);
        } catch (SdkException e) {
            throw unavailable("replace", key, e);
        }
    }

    /** Deletes the object only if it is still the version {@code eTag} names; false when it changed or is gone. */
    public boolean delete(String key, String eTag) {
        try {
            s3.deleteObject(b -> b.bucket(bucket).key(key).ifMatch(eTag));
            return true;
        } catch (S3Exception e) {
            if (isConditionFailure(e)) {
                return false;
            }
            throw unavailable("delete", key, e);
        } catch (SdkException e) {
            throw unavailable("delete", key, e);
        }
    }

    /** Writes {@code body} at {@code key}, whatever is there. */
    public void put(String key, String contentType, RequestBody body) {
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType), body);
        } catch (SdkException e) {
            throw unavailable("write", key, e);
        }
    }

    /** The object and its response (ETag), or empty when there is none. */
    public Optional<ResponseBytes<GetObjectResponse>> read(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            // a missing bucket is a misconfiguration, not a missing object
            if (e.statusCode() == NOT_FOUND && e.awsErrorDetails() != null
                    && NO_SUCH_KEY.equals(e.awsErrorDetails().errorCode())) {
                return Optional.empty();
            }
            throw unavailable("read", key, e);
        } catch (SdkException e) {
            throw unavailable("read", key, e);
        }
    }

    /** The size of the object at {@code key} (HeadObject), or empty when there is none. */
    public Optional<Long> size(String key) {
        try {
            return Optional.of(s3.headObject(b -> b.bucket(bucket).key(key)).contentLength());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND) {
                return Optional.empty();
            }
            throw unavailable("read", key, e);
        } catch (SdkException e) {
            throw unavailable("read", key, e);
        }
    }

    /** A presigned GET of {@code key}, valid for {@code ttl} (signed locally: no call to S3). */
    public URL presignGet(String key, Duration ttl) {
        return presigner.presignGetObject(p -> p.signatureDuration(ttl)
                .getObjectRequest(g -> g.bucket(bucket).key(key))).url();
    }

    /** A presigned PUT of {@code key}, valid for {@code ttl}. */
    public URL presignPut(String key, Duration ttl) {
        return presigner.presignPutObject(p -> p.signatureDuration(ttl)
                .putObjectRequest(r -> r.bucket(bucket).key(key))).url();
    }

    public StoreUnavailableException unavailable(String action, String key, SdkException e) {
        return new StoreUnavailableException("cannot " + action + " s3://" + bucket + "/" + key + ": "
                + e.getMessage(), e);
    }

    private static boolean isConditionFailure(S3Exception e) {
        return e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT || e.statusCode() == NOT_FOUND;
    }
}
