package io.gpupipe.jobs.port;

import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.owner.CallerOwners;
import io.gpupipe.model.owner.Owner;
import java.net.URL;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link BatchStore} as one caller sees it: a batch record (or terminal record) of an owner id that is not one of
 * the caller's ({@link CallerOwners}: its current id and the earlier ones it is still known by) reads as absent, so
 * status, cancel and links answer as for an unknown batch. Everything else is the store's.
 */
public final class OwnedBatchStore implements BatchStore {
    private final BatchStore store;
    private final CallerOwners owners;

    /** {@code store} as {@code owners}' caller sees it; a store already scoped to a caller is re-scoped, not twice. */
    public OwnedBatchStore(BatchStore store, CallerOwners owners) {
        this.store = store instanceof OwnedBatchStore owned ? owned.store : store;
        this.owners = Objects.requireNonNull(owners, "owners");
    }

    /** {@code store} as the caller known only by {@code owner} sees it. */
    public OwnedBatchStore(BatchStore store, Owner owner) {
        this(store, CallerOwners.only(owner));
    }

    @Override
    public Optional<String> create(BatchState state) {
        return store.create(state);
    }

    @Override
    public Optional<StoredBatch> read(String batchId) {
        return store.read(batchId).filter(stored -> owners.includes(stored.state().ownedBy()));
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
        return store.readFinal(batchId).filter(state -> owners.includes(state.ownedBy()));
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
