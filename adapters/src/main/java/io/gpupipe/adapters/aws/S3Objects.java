package io.gpupipe.adapters.aws;

import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.jobs.port.StoreRetries;
import io.gpupipe.model.S3Uris;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The S3 calls every store is made of, and the one place that reads S3's answers to them: create-only writes
 * ({@code If-None-Match: *}), replaces and deletes conditional on an ETag ({@code If-Match}). 412 Precondition Failed
 * means the condition failed (something is there; the version changed); 404 that the object is gone; 409
 * ConditionalRequestConflict that another conditional write to the same key is in progress, which S3 asks to retry
 * ("Conditional writes", Amazon S3 User Guide; PutObject and CopyObject, S3 API reference: "On a 409 failure you
 * should retry"): it is retried until S3 answers one of the others. Any other failure is
 * {@link StoreUnavailableException}.
 */
public final class S3Objects {
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;
    private static final String NO_SUCH_KEY = "NoSuchKey";

    private final S3Client s3;
    private final S3Presigner presigner;
    private final String bucket;

    /** {@code presigner} may be null where nothing is presigned. */
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
        return conditionally("write", key, false, () -> s3.putObject(b -> b.bucket(bucket).key(key)
                .contentType(contentType).ifNoneMatch("*"), body).eTag());
    }

    /**
     * Copies {@code fromKey} to {@code toKey} only if nothing is at {@code toKey}: CopyObject takes
     * {@code If-None-Match: *} ("copies the object only if the object key name at the destination does not already
     * exist", S3 API reference, CopyObject). False when the destination exists or the source is gone (404).
     */
    public boolean copyCreateOnly(String fromKey, String toKey) {
        return conditionally("copy " + fromKey + " to", toKey, true, () -> s3.copyObject(b -> b.sourceBucket(bucket)
                .sourceKey(fromKey).destinationBucket(bucket).destinationKey(toKey).ifNoneMatch("*"))).isPresent();
    }

    /** Writes {@code body} only over the version {@code eTag} names; false when it changed or is gone. */
    public boolean replace(String key, String contentType, String body, String eTag) {
        return conditionally("replace", key, true, () -> s3.putObject(b -> b.bucket(bucket).key(key)
                .contentType(contentType).ifMatch(eTag), RequestBody.fromString(body))).isPresent();
    }

    /**
     * Deletes the object only if it is still the version {@code eTag} names; false when it changed or is gone. S3
     * honours If-Match on DeleteObject in general purpose buckets ("How to perform conditional deletes", Amazon S3
     * User Guide); it needs s3:GetObject too.
     */
    public boolean delete(String key, String eTag) {
        return conditionally("delete", key, true, () -> s3.deleteObject(b -> b.bucket(bucket).key(key)
                .ifMatch(eTag))).isPresent();
    }

    /** Writes {@code body} at {@code key}, whatever is there. */
    public void put(String key, String contentType, RequestBody body) {
        unconditionally("write", key, () -> s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType),
                body));
    }

    /** Copies {@code fromKey} to {@code toKey} server-side, whatever is there. */
    public void copy(String fromKey, String toKey) {
        unconditionally("copy " + fromKey + " to", toKey, () -> s3.copyObject(b -> b.sourceBucket(bucket)
                .sourceKey(fromKey).destinationBucket(bucket).destinationKey(toKey)));
    }

    /** Deletes the object at {@code key}, if there is one. */
    public void delete(String key) {
        unconditionally("delete", key, () -> s3.deleteObject(b -> b.bucket(bucket).key(key)));
    }

    /** The object and its response (ETag), or empty when there is none. */
    public Optional<ResponseBytes<GetObjectResponse>> read(String key) {
        return readIfThere("read", key, false, () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)));
    }

    /** The object at {@code key} as a stream the caller closes, or empty when there is none. */
    public Optional<InputStream> open(String key) {
        return readIfThere("read", key, false, () -> s3.getObject(b -> b.bucket(bucket).key(key)));
    }

    /** The bytes {@code [start, end)} of the object at {@code key} as a stream the caller closes (GetObject Range). */
    public InputStream open(String key, long start, long end) {
        return readIfThere("read", key, false, () -> (InputStream) s3.getObject(b -> b.bucket(bucket).key(key)
                .range("bytes=" + start + "-" + (end - 1)))).orElseThrow(() -> new StoreUnavailableException(
                "cannot read s3://" + bucket + "/" + key + ": it is not there", null));
    }

    /** The first {@code length} bytes of the object at {@code key}, or empty when there is none. */
    public Optional<byte[]> readHead(String key, int length) {
        return readIfThere("read", key, false, () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)
                .range("bytes=0-" + (length - 1))).asByteArray());
    }

    /** The size of the object at {@code key} (HeadObject), or empty when there is none. */
    public Optional<Long> size(String key) {
        return readIfThere("read", key, true, () -> s3.headObject(b -> b.bucket(bucket).key(key)).contentLength());
    }

    /**
     * Up to {@code max} keys under {@code prefix} that sort after {@code startAfter} (null: from the first), in key
     * order: one ListObjectsV2 call (S3 answers at most 1,000 keys per call).
     */
    public List<String> keys(String prefix, String startAfter, int max) {
        try {
            return s3.listObjectsV2(b -> b.bucket(bucket).prefix(prefix).startAfter(startAfter).maxKeys(max))
                    .contents().stream().map(S3Object::key).toList();
        } catch (SdkException e) {
            throw unavailable("list", prefix, e);
        }
    }

    /** A presigned GET of {@code key}, valid for {@code ttl} (signed locally: no call to S3). */
    public URL presignGet(String key, Duration ttl) {
        return presigner.presignGetObject(p -> p.signatureDuration(ttl)
                .getObjectRequest(g -> g.bucket(bucket).key(key))).url();
    }

    /** The S3 URI of {@code key}: {@code s3://bucket/key}. */
    public String location(String key) {
        return S3Uris.of(bucket, key);
    }

    /**
     * A presigned PUT of {@code key}, valid for {@code ttl}, for a body of exactly {@code bytes} bytes: Content-Length
     * is signed ({@code X-Amz-SignedHeaders=content-length;host}), so S3 answers 403 to a body of any other length.
     */
    public URL presignPut(String key, Duration ttl, long bytes) {
        return presigner.presignPutObject(p -> p.signatureDuration(ttl)
                .putObjectRequest(r -> r.bucket(bucket).key(key).contentLength(bytes))).url();
    }

    public StoreUnavailableException unavailable(String action, String key, SdkException e) {
        return new StoreUnavailableException("cannot " + action + " s3://" + bucket + "/" + key + ": "
                + e.getMessage(), e, AwsFailures.isRetryable(e));
    }

    /**
     * Runs a conditional call: its answer when the condition held; empty on 412, and on 404 when {@code goneFails};
     * 409 is retried.
     */
    private <T> Optional<T> conditionally(String action, String key, boolean goneFails, Supplier<T> call) {
        Retry conflicts = StoreRetries.CONFIGURED.conditionalConflicts().start();
        while (true) {
            try {
                return Optional.of(call.get());
            } catch (S3Exception e) {
                if (e.statusCode() == PRECONDITION_FAILED || (goneFails && e.statusCode() == NOT_FOUND)) {
                    return Optional.empty();
                }
                if (e.statusCode() != CONFLICT) {
                    throw unavailable(action, key, e);
                }
                if (!conflicts.another()) {
                    throw unavailable(action + (conflicts.interrupted() ? " (interrupted)" : " (" + conflicts.attempt()
                            + " attempts met a concurrent conditional write)"), key, e);
                }
            } catch (SdkException e) {
                throw unavailable(action, key, e);
            }
        }
    }

    private void unconditionally(String action, String key, Runnable call) {
        try {
            call.run();
        } catch (SdkException e) {
            throw unavailable(action, key, e);
        }
    }

    /**
     * A read's answer, or empty when the object is not there. GetObject's 404 names NoSuchKey (a missing bucket is a
     * misconfiguration, not a missing object); HeadObject's has no error body, so {@code anyNotFound} for it.
     */
    private <T> Optional<T> readIfThere(String action, String key, boolean anyNotFound, Supplier<T> call) {
        try {
            return Optional.of(call.get());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND && (anyNotFound || (e.awsErrorDetails() != null
                    && NO_SUCH_KEY.equals(e.awsErrorDetails().errorCode())))) {
                return Optional.empty();
            }
            throw unavailable(action, key, e);
        } catch (SdkException e) {
            throw unavailable(action, key, e);
        }
    }
}
