package io.gpupipe.worker.support;

import io.gpupipe.worker.JobEvent;
import io.gpupipe.worker.JobEvents;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps job events in memory for assertions. */
public final class CapturedEvents implements JobEvents {
    private final List<JobEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public void emit(JobEvent event) {
        events.add(event);
    }

    public List<JobEvent> of(String requestId) {
        return events.stream().filter(e -> e.requestId().equals(requestId)).toList();
    }

    public List<JobEvent> all() {
        return List.copyOf(events);
    }
}
