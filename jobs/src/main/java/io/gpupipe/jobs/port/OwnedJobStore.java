package io.gpupipe.jobs.port;

import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.Owner;
import java.net.URL;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link JobStore} as one caller sees it: a marker or result another owner's (or no owner's) reads as absent, so
 * every answer built from it (status, cancel, resubmission, presigned links) is the one for an unknown job. Per-owner
 * stored ids ({@link io.gpupipe.model.owner.JobIds}) already keep callers apart; this is the check behind them.
 */
public final class OwnedJobStore implements JobStore {
    private final JobStore store;
    private final Owner owner;

    /** {@code store} as {@code owner} sees it; a store already scoped to a caller is re-scoped, not scoped twice. */
    public OwnedJobStore(JobStore store, Owner owner) {
        this.store = store instanceof OwnedJobStore owned ? owned.store : store;
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    @Override
    public Optional<String> createMarker(JobState marker) {
        return store.createMarker(marker);
    }

    @Override
    public Optional<StoredMarker> readMarker(String requestId) {
        return store.readMarker(requestId).filter(stored -> owner.value().equals(stored.state().owner()));
    }

    @Override
    public Optional<JobResult> readResult(String requestId) {
        return store.readResult(requestId).filter(result -> owner.value().equals(result.owner()));
    }

    @Override
    public boolean replaceMarker(JobState marker, String eTag) {
        return store.replaceMarker(marker, eTag);
    }

    @Override
    public boolean deleteMarker(String requestId, String eTag) {
        return store.deleteMarker(requestId, eTag);
    }

    @Override
    public void putPayload(String key, String json) {
        store.putPayload(key, json);
    }

    @Override
    public URL presignGet(String key, Duration ttl) {
        return store.presignGet(key, ttl);
    }

    @Override
    public String location(String key) {
        return store.location(key);
    }
}
