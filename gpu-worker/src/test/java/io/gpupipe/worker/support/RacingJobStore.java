package io.gpupipe.worker.support;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.adapters.WorkerJobStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The real store with a hook at the port: {@link #afterFirstMarkerRead} runs an action right after the worker's
 * first read of a job's marker, before the worker can act on what it read — a deterministic way to land another
 * writer (the API's cancel) in the window between the worker's read and its running write.
 */
public final class RacingJobStore extends ForwardingJobStore {
    private final Map<String, Consumer<WorkerJobStore>> hooks = new ConcurrentHashMap<>();

    public RacingJobStore(WorkerJobStore delegate) {
        super(delegate);
    }

    /** Runs {@code action} once, with the real store, after the next marker read of {@code requestId}. */
    public void afterFirstMarkerRead(String requestId, Consumer<WorkerJobStore> action) {
        hooks.put(requestId, action);
    }

    @Override
    public MarkerSnapshot markerSnapshot(String requestId) {
        MarkerSnapshot read = delegate.markerSnapshot(requestId);
        Consumer<WorkerJobStore> hook = hooks.remove(requestId);
        if (hook != null) {
            hook.accept(delegate);
        }
        return read;
    }
}
