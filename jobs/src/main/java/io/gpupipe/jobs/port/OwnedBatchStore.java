package io.gpupipe.jobs.port;

import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.owner.Owner;
import java.net.URL;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link BatchStore} as one caller sees it: another owner's batch record (or terminal record) reads as absent, so
 * status, cancel and links answer as for an unknown batch. Everything else is the store's.
 */
public final class OwnedBatchStore implements BatchStore {
    private final BatchStore store;
    private final Owner owner;

    /** {@code store} as {@code owner} sees it; a store already scoped to a caller is re-scoped, not scoped twice. */
    public OwnedBatchStore(BatchStore store, Owner owner) {
        this.store = store instanceof OwnedBatchStore owned ? owned.store : store;
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    @Override
    public Optional<String> create(BatchState state) {
        return store.create(state);
    }

    @Override
    public Optional<StoredBatch> read(String batchId) {
        return store.read(batchId).filter(stored -> owner.equals(stored.state().ownedBy()));
    }

    @Override
    public boolean replace(BatchState state, String eTag) {
        return store.replace(state, eTag);
    }

    @Override
    public boolean delete(String batchId, String eTag) {
        return store.delete(batchId, eTag);
    }

    @Override
    public Optional<BatchState> readFinal(String batchId) {
        return store.readFinal(batchId).filter(state -> owner.equals(state.ownedBy()));
    }

    @Override
    public boolean createFinal(BatchState terminal) {
        return store.createFinal(terminal);
    }

    @Override
    public boolean createEmpty(String key) {
        return store.createEmpty(key);
    }

    @Override
    public void deleteAll(Collection<String> keys) {
        store.deleteAll(keys);
    }

    @Override
    public List<String> list(String prefix) {
        return store.list(prefix);
    }

    @Override
    public Optional<Long> size(String key) {
        return store.size(key);
    }

    @Override
    public URL presignPut(String key, Duration ttl, long bytes) {
        return store.presignPut(key, ttl, bytes);
    }

    @Override
    public URL presignGet(String key, Duration ttl) {
        return store.presignGet(key, ttl);
    }
}
