package io.gpupipe.worker.support;

import io.gpupipe.worker.JobEvent;
import io.gpupipe.worker.JobEvents;
import io.gpupipe.worker.StdoutJobEvents;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;

/** In @QuarkusTest apps, replaces the default stdout events: records them for assertions and still prints them. */
@Singleton
public class RecordingJobEvents implements JobEvents {
    private final CapturedEvents captured = new CapturedEvents();
    private final StdoutJobEvents stdout = new StdoutJobEvents(System.out, Clock.systemUTC());

    @Override
    public void emit(JobEvent event) {
        captured.emit(event);
        stdout.emit(event);
    }

    public List<JobEvent> of(String requestId) {
        return captured.of(requestId);
    }
}
