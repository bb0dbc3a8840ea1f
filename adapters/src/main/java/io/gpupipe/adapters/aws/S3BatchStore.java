package io.gpupipe.adapters.aws;

import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchState;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * {@link BatchStore} on S3 ({@link S3Objects}' conditional writes), ListObjectsV2 page by page, DeleteObjects in
 * groups of at most 1,000 keys (its limit, Amazon S3 API Reference). Its record calls read as {@link S3JobStore}'s
 * marker calls on purpose: the same {@link S3Objects} calls (create-only, read with the ETag, replace and delete
 * If-Match) on another document.
 */
public final class S3BatchStore implements BatchStore {
    private static final String JSON = "application/json";
    private static final int DELETE_OBJECTS_MAX_KEYS = 1000;

    private final S3Client s3;
    private final S3Objects objects;
    private final String bucket;

    public S3BatchStore(S3Client s3, S3Presigner presigner, String bucket) {
        this.s3 = s3;
        this.objects = new S3Objects(s3, presigner, bucket);
        this.bucket = bucket;
    }

    @Override
    public Optional<String> create(BatchState state) {
        return objects.createOnly(BatchLayout.recordKey(state.id()), JSON,
                RequestBody.fromString(JobJson.write(state)));
    }

    @Override
    public Optional<StoredBatch> read(String batchId) {
        return objects.read(BatchLayout.recordKey(batchId)).map(bytes -> new StoredBatch(JobJson.read(
                bytes.asUtf8String(), BatchState.class), bytes.response().eTag()));
    }

    @Override
    public boolean replace(BatchState state, String eTag) {
        return objects.replace(BatchLayout.recordKey(state.id()), JSON, JobJson.write(state), eTag);
    }

    @Override
    public boolean delete(String batchId, String eTag) {
        return objects.delete(BatchLayout.recordKey(batchId), eTag);
    }

    @Override
    public Optional<BatchState> readFinal(String batchId) {
        return objects.read(BatchLayout.finalKey(batchId))
                .map(bytes -> JobJson.read(bytes.asUtf8String(), BatchState.class));
    }

    @Override
    public boolean createFinal(BatchState terminal) {
        return objects.createOnly(BatchLayout.finalKey(terminal.id()), JSON,
                RequestBody.fromString(JobJson.write(terminal))).isPresent();
    }

    @Override
    public boolean createEmpty(String key) {
        return objects.createOnly(key, JSON, RequestBody.empty()).isPresent();
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
                throw objects.unavailable("delete", group.size() + " keys under " + group.get(0).key(), e);
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
            throw objects.unavailable("list", prefix, e);
        }
        return keys;
    }

    @Override
    public Optional<Long> size(String key) {
        return objects.size(key);
    }

    @Override
    public URL presignPut(String key, Duration ttl, long bytes) {
        return objects.presignPut(key, ttl, bytes);
    }

    @Override
    public URL presignGet(String key, Duration ttl) {
        return objects.presignGet(key, ttl);
    }
}
