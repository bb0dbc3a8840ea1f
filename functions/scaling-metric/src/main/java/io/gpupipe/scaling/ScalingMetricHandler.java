package io.gpupipe.scaling;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.gpupipe.scaling.event.ScheduledEvent;
import jakarta.inject.Named;
import java.time.Clock;

/**
 * EventBridge schedule target (every minute). The datapoints carry the schedule's time, so a retried or late
 * invocation lands on the minute it was meant for.
 */
@Named("scaling-metric")
public class ScalingMetricHandler implements RequestHandler<ScheduledEvent, ScalingRun> {
    private final ScalingMetricService service;
    private final Clock clock;

    ScalingMetricHandler(ScalingMetricService service, Clock clock) {
        this.service = service;
        this.clock = clock;
    }

    @Override
    public ScalingRun handleRequest(ScheduledEvent event, Context context) {
        return service.tick(event == null ? clock.instant() : event.instant().orElseGet(clock::instant));
    }
}
