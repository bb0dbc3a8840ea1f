package io.gpupipe.adapters.aws;

import io.gpupipe.adapters.CacheStore;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The result cache on S3 ({@code cache/} of the results bucket; S3's answers read by {@link S3Objects}): entries
 * created with {@code If-None-Match: *}, so the first success of a key stays its answer until the lifecycle rule
 * expires it; a hit's audio copied create-only, so it never replaces audio a result already names.
 */
public final class S3CacheStore implements CacheStore {
    private static final Logger LOG = Logger.getLogger(S3CacheStore.class);

    private final S3Objects objects;

    public S3CacheStore(S3Objects objects) {
        this.objects = objects;
    }

    public S3CacheStore(S3Client s3, String bucket) {
        this(new S3Objects(s3, null, bucket));
    }

    @Override
    public Optional<CacheEntry> readEntry(CacheKey key) {
        String object = key.entryObjectKey();
        Optional<String> json = objects.read(object).map(ResponseBytes::asUtf8String);
        try {
            return json.map(entry -> JobJson.read(entry, CacheEntry.class));
        } catch (UncheckedIOException | IllegalArgumentException e) {
            LOG.warnf("ignoring the unreadable cache entry %s: %s", object, e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public boolean putEntryIfAbsent(CacheEntry entry) {
        return objects.createOnly(new CacheKey(entry.key()).entryObjectKey(), "application/json",
                RequestBody.fromString(JobJson.write(entry))).isPresent();
    }

    @Override
    public boolean copyIfAbsent(String fromKey, String toKey) {
        return objects.copyCreateOnly(fromKey, toKey);
    }

    @Override
    public void copy(String fromKey, String toKey) {
        objects.copy(fromKey, toKey);
    }

    @Override
    public void delete(String key) {
        objects.delete(key);
    }
}
