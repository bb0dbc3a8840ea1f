package io.gpupipe.worker;

import io.gpupipe.adapters.CacheStore;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.cache.CachePolicy;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.backend.ModelIdentity;
import java.time.Clock;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Writes a result cache entry after a job's own result was written: only for a job the cache applies to on this
 * tier ({@link CachePolicy}) and only under a pinned model version, so an entry never claims weights nobody
 * verified. Speech audio and offloaded embedding vectors are copied into the cache first (its own object, which outlives the result's), then the
 * entry is created; if another worker's entry won, the copy is removed again. A failure here never fails the job:
 * the result is already stored, and a missing entry only costs a later miss.
 */
final class ResultCacheWriter {
    private static final Logger LOG = Logger.getLogger(ResultCacheWriter.class);
    /** No result cache (tests and tools that build workers without one). */
    static final ResultCacheWriter NONE = new ResultCacheWriter(null, null, Clock.systemUTC());

    private final CacheStore store;
    private final TierDefinition tier;
    private final Clock clock;

    ResultCacheWriter(CacheStore store, TierDefinition tier, Clock clock) {
        this.store = store;
        this.tier = tier;
        this.clock = clock;
    }

    /** Caches {@code result}, the succeeded result this worker just wrote for {@code job}, when allowed. */
    void cache(InferenceJob job, JobResult result, ModelIdentity model) {
        if (store == null || !CachePolicy.applies(job, tier)) {
            return;
        }
        Optional<String> version = model.cacheVersion();
        if (version.isEmpty()) {
            LOG.infof("not caching %s: model %s has no pinned version (%s)", job.requestId(), model.model(),
                    model.version());
            return;
        }
        CacheKey key = CacheKey.of(version.get(), job);
        try {
            CacheEntry entry = CacheEntry.of(key, result, clock.instant());
            Optional<String> copy = entry.output().objectKey();
            copy.ifPresent(to -> store.copy(result.result().objectKey().orElseThrow(), to));
            if (store.putEntryIfAbsent(entry)) {
                LOG.infof("cached the result of %s as %s", job.requestId(), key.hex());
            } else {
                copy.ifPresent(store::delete);
            }
        } catch (RuntimeException e) {
            LOG.warnf("could not cache the result of %s (key %s): %s; the job's result is unaffected",
                    job.requestId(), key.hex(), e.toString());
        }
    }
}
