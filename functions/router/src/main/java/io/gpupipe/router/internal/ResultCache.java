package io.gpupipe.router.internal;

import io.gpupipe.adapters.CacheStore;
import io.gpupipe.adapters.JobResults;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.cache.CachePolicy;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The router's side of the result cache: a job the cache applies to ({@link CachePolicy}) is looked up under the
 * model version configured for its tier ({@code gpupipe.router.model-versions.<tier>}, the version the tier's
 * workers claim); a hit becomes the job's own result, written create-only, with its own copy of speech audio (or of
 * embedding vectors kept in their own object). Any
 * doubt is a miss and the job goes to its queue as usual: no version configured, no entry, an entry for another
 * version, audio that expired, a result already there, or the store failing.
 */
public final class ResultCache {
    private static final Logger LOG = Logger.getLogger(ResultCache.class);

    private final CacheStore store;
    private final JobResults results;
    private final TierCatalogue tiers;
    private final Map<Tier, String> modelVersions;
    private final RoutingMetrics metrics;
    private final Clock clock;

    public ResultCache(CacheStore store, JobResults results, TierCatalogue tiers, Map<Tier, String> modelVersions,
                       RoutingMetrics metrics, Clock clock) {
        this.store = store;
        this.results = results;
        this.tiers = tiers;
        this.modelVersions = Map.copyOf(modelVersions);
        this.metrics = metrics;
        this.clock = clock;
    }

    /** The job's result, answered from the cache and stored; empty on a miss. */
    public Optional<JobResult> answer(InferenceJob job, Tier tier) {
        if (!CachePolicy.applies(job, tiers.get(tier))) {
            return Optional.empty();
        }
        Optional<String> version = CachePolicy.knownVersion(modelVersions.get(tier));
        if (version.isEmpty()) {
            LOG.debugf("no model version configured for tier %s: %s is not looked up", tier, job.requestId());
            return Optional.empty();
        }
        CacheKey key = CacheKey.of(version.get(), job);
        try {
            Optional<CacheEntry> entry = store.readEntry(key).filter(e -> e.answers(key, version.get(), job.task()));
            if (entry.isEmpty()) {
                return Optional.empty();
            }
            JobResult result = entry.get().answer(job, tier, clock.instant());
            Optional<String> object = entry.get().output().objectKey();
            if (object.isPresent() && !store.copyIfAbsent(object.get(), result.result().objectKey().orElseThrow())) {
                LOG.infof("cache entry %s has no %s any more, or %s has one already: a miss", key.hex(),
                        object.get(), job.requestId());
                return Optional.empty();
            }
            if (!results.putResultIfAbsent(result)) {
                LOG.infof("%s already has a result: not answered from the cache", job.requestId());
                return Optional.empty();
            }
            metrics.cacheHit(job, tier);
            return Optional.of(result);
        } catch (StoreUnavailableException e) {
            LOG.warnf("cache look-up of %s failed, treating it as a miss: %s", job.requestId(), e.getMessage());
            return Optional.empty();
        }
    }
}
