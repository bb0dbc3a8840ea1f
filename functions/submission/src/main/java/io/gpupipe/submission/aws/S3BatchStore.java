package io.gpupipe.submission.aws;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.submission.BatchStore;
import io.gpupipe.submission.exception.StoreUnavailableException;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * {@link BatchStore} on S3: create-only writes with {@code If-None-Match: *}, replaces and deletes with
 * {@code If-Match: <etag>} (S3 conditional writes; 412 when the condition fails, 409 on a concurrent write),
 * ListObjectsV2 page by page, DeleteObjects in groups of at most 1,000 keys (its limit, Amazon S3 API Reference).
 */
public final class S3BatchStore implements BatchStore {
    private static final String JSON = "application/json";
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;
    private static final int DELETE_OBJECTS_MAX_KEYS = 1000;

    private final S3Client s3;
    private final S3Presigner presigner;
    private final String bucket;

    public S3BatchStore(S3Client s3, S3Presigner presigner, String bucket) {
        this.s3 = s3;
        this.presigner = presigner;
        this.bucket = bucket;
    }

    @Override
    public Optional<String> create(BatchState state) {
        String key = BatchLayout.recordKey(state.id());
        try {
            return Optional.of(s3.putObject(b -> b.bucket(bucket).key(key).contentType(JSON).ifNoneMatch("*"),
                    RequestBody.fromString(JobJson.write(state))).eTag());
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
    public Optional<StoredBatch> read(String batchId) {
        return object(BatchLayout.recordKey(batchId)).map(bytes -> new StoredBatch(JobJson.read(bytes.asUtf8String(),
                BatchState.class), bytes.response().eTag()));
    }

    @Override
    public boolean replace(BatchState state, String eTag) {
        String key = BatchLayout.recordKey(state.id());
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType(JSON).ifMatch(eTag),
                    RequestBody.fromString(JobJson.write(state)));
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

    @Override
    public boolean delete(String batchId, String eTag) {
        String key = BatchLayout.recordKey(batchId);
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

    @Override
    public Optional<BatchState> readFinal(String batchId) {
        return object(BatchLayout.finalKey(batchId)).map(bytes -> JobJson.read(bytes.asUtf8String(), BatchState.class));
    }

    @Override
    public boolean createFinal(BatchState terminal) {
        return createOnly(BatchLayout.finalKey(terminal.id()), JobJson.write(terminal));
    }

    @Override
    public boolean createEmpty(String key) {
        return createOnly(key, "");
    }

    @Override
    public void deleteAll(Collection<String> keys) {
        List<String> all = List.copyOf(keys);
        for (int from = 0; from < all.size(); from += DELETE_OBJECTS_MAX_KEYS) {
            List<ObjectIdentifier> group = all.subList(from, Math.min(all.size(), from + DELETE_OBJECTS_MAX_KEYS))
                    .stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList();
            try {
                s3.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(group).quiet(true)));
            } catch (SdkException e) {
                throw unavailable("delete", group.size() + " keys under " + group.get(0).key(), e);
            }
        }
    }

    @Override
    public List<String> list(String prefix) {
        List<String> keys = new ArrayList<>();
        try {
            s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
                    .map(S3Object::key).forEach(keys::add);
        } catch (SdkException e) {
            throw unavailable("list", prefix, e);
        }
        return keys;
    }

    @Override
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

    @Override
    public URL presignPut(String key, Duration ttl) {
        return presigner.presignPutObject(p -> p.signatureDuration(ttl)
                .putObjectRequest(r -> r.bucket(bucket).key(key))).url();
    }

    @Override
    public URL presignGet(String key, Duration ttl) {
        return presigner.presignGetObject(p -> p.signatureDuration(ttl)
                .getObjectRequest(g -> g.bucket(bucket).key(key))).url();
    }

    private boolean createOnly(String key, String body) {
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType(JSON).ifNoneMatch("*"),
                    RequestBody.fromString(body));
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

    private Optional<ResponseBytes<GetObjectResponse>> object(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw unavailable("read", key, e);
        }
    }

    private static boolean isConditionFailure(S3Exception e) {
        return e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT || e.statusCode() == NOT_FOUND;
    }

    private StoreUnavailableException unavailable(String action, String key, SdkException e) {
        return new StoreUnavailableException("cannot " + action + " s3://" + bucket + "/" + key + ": "
                + e.getMessage(), e);
    }
}
