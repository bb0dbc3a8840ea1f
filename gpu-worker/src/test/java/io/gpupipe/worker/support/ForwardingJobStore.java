package io.gpupipe.worker.support;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import java.util.Optional;

/** A store that forwards every call to the real one; test stores override the calls they interfere with. */
public abstract class ForwardingJobStore implements WorkerJobStore {
    protected final WorkerJobStore delegate;

    protected ForwardingJobStore(WorkerJobStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public MarkerSnapshot markerSnapshot(String requestId) {
        return delegate.markerSnapshot(requestId);
    }

    @Override
    public boolean replaceMarker(JobState marker, MarkerSnapshot expected) {
        return delegate.replaceMarker(marker, expected);
    }

    @Override
    public boolean resultExists(String requestId) {
        return delegate.resultExists(requestId);
    }

    @Override
    public boolean putResultIfAbsent(JobResult result) {
        return delegate.putResultIfAbsent(result);
    }

    @Override
    public boolean putAudioIfAbsent(String requestId, byte[] wav) {
        return delegate.putAudioIfAbsent(requestId, wav);
    }

    @Override
    public Optional<String> readPayload(String key) {
        return delegate.readPayload(key);
    }

    @Override
    public boolean putEmbeddingsIfAbsent(String requestId, byte[] json) {
        return delegate.putEmbeddingsIfAbsent(requestId, json);
    }

    @Override
    public Optional<byte[]> readAudioHead(String requestId, int length) {
        return delegate.readAudioHead(requestId, length);
    }
}
