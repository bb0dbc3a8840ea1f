package io.gpupipe.router.aws;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.submission.aws.S3Objects;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * {@link CacheStore} on S3 ({@link S3Objects}, which reads S3's conditional answers): {@code cache/} entries,
 * create-only CopyObject for audio (a hit never replaces audio a result already names), create-only result writes.
 */
public final class S3CacheStore implements CacheStore {
    private static final Logger LOG = Logger.getLogger(S3CacheStore.class);

    private final S3Objects objects;

    public S3CacheStore(S3Objects objects) {
        this.objects = objects;
    }

    @Override
    public Optional<CacheEntry> readEntry(CacheKey key) {
        String object = JobLayout.cacheEntryKey(key);
        Optional<String> json = objects.read(object).map(bytes -> bytes.asUtf8String());
        try {
            return json.map(entry -> JobJson.read(entry, CacheEntry.class));
        } catch (UncheckedIOException | IllegalArgumentException e) {
            LOG.warnf("ignoring the unreadable cache entry %s: %s", object, e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public boolean copy(String fromKey, String toKey) {
        return objects.copyCreateOnly(fromKey, toKey);
    }

    @Override
    public boolean createResult(JobResult result) {
        return objects.createOnly(JobLayout.resultKey(result.requestId()), "application/json",
                RequestBody.fromString(JobJson.write(result))).isPresent();
    }
}
