package io.gpupipe.worker.support;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * The real store with faults injected at the port, per requestId: marker reads that throw (an unexpected error
 * before inference), marker writes that always lose (a contended claim), and result writes that fail a number of
 * times (S3 trouble after inference).
 */
public final class FaultyJobStore extends ForwardingJobStore {
    private final Set<String> brokenMarkerReads = ConcurrentHashMap.newKeySet();
    private final Set<String> contendedMarkers = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> failingResultWrites = new ConcurrentHashMap<>();

    public FaultyJobStore(WorkerJobStore delegate) {
        super(delegate);
    }

    /** Every marker read of {@code requestId} throws. */
    public void breakMarkerReads(String requestId) {
        brokenMarkerReads.add(requestId);
    }

    /** Every conditional marker write of {@code requestId} loses, as if another writer always got there first. */
    public void contendMarker(String requestId) {
        contendedMarkers.add(requestId);
    }

    /** The next {@code count} result writes of {@code requestId} throw, as when S3 is unreachable. */
    public void failResultWrites(String requestId, int count) {
        failingResultWrites.put(requestId, new AtomicInteger(count));
    }

    @Override
    public MarkerSnapshot markerSnapshot(String requestId) {
        if (brokenMarkerReads.contains(requestId)) {
            throw SdkClientException.create("injected: marker read of " + requestId + " failed");
        }
        return delegate.markerSnapshot(requestId);
    }

    @Override
    public boolean replaceMarker(JobState marker, MarkerSnapshot expected) {
        if (contendedMarkers.contains(marker.requestId())) {
            return false;
        }
        return delegate.replaceMarker(marker, expected);
    }

    @Override
    public boolean putResultIfAbsent(JobResult result) {
        AtomicInteger failures = failingResultWrites.get(result.requestId());
        if (failures != null && failures.getAndDecrement() > 0) {
            throw SdkClientException.create("injected: result write of " + result.requestId() + " failed");
        }
        return delegate.putResultIfAbsent(result);
    }
}
