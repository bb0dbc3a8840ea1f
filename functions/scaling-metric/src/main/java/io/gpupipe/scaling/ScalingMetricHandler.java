package io.gpupipe.scaling;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.gpupipe.scaling.event.ScheduledEvent;
import jakarta.inject.Named;
import java.time.Clock;

/**
 * EventBridge schedule target (every minute). The datapoints carry the schedule's time, so a retried or late
 * invocation lands on the minute it was meant for. The router's asynchronous wake of an idle tier
 * ({@link io.gpupipe.model.scaling.TierWake}) arrives here too, and sets that tier's desired count at once.
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
        if (event == null) {
            return service.tick(clock.instant());
        }
        return event.wake(clock.instant()).map(service::wake)
                .orElseGet(() -> service.tick(event.instant().orElseGet(clock::instant)));
    }
}
