package io.gpupipe.worker;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/** The health checks ECS uses: readiness at {@code /q/health/ready}, liveness at {@code /q/health/live}. */
public final class WorkerHealth {
    private WorkerHealth() {
    }

    /**
     * UP only once the model server answered and a warm-up inference succeeded; DOWN again while draining. Its data
     * also say how full the consumption window is and how many deliveries were settled (the local web console shows
     * them; ECS reads only the status).
     */
    @Readiness
    @ApplicationScoped
    public static class Ready implements HealthCheck {
        private final WorkerState state;
        private final WorkerLifecycle lifecycle;

        Ready(WorkerState state, WorkerLifecycle lifecycle) {
            this.state = state;
            this.lifecycle = lifecycle;
        }

        @Override
        public HealthCheckResponse call() {
            HealthCheckResponseBuilder answer = HealthCheckResponse.named("gpu-worker")
                    .status(state.phase() == WorkerState.Phase.READY)
                    .withData("phase", state.phase().name()).withData("detail", state.detail());
            lifecycle.worker().ifPresent(w -> answer.withData("windowLimit", w.windowLimit())
                    .withData("inFlight", w.inFlight()).withData("jobsSettled", w.jobsSettled()));
            return answer.build();
        }
    }

    /** DOWN only when the worker cannot recover by itself (start-up failed, or the poller died). */
    @Liveness
    @ApplicationScoped
    public static class Live implements HealthCheck {
        private final WorkerState state;
        private final WorkerLifecycle lifecycle;

        Live(WorkerState state, WorkerLifecycle lifecycle) {
            this.state = state;
            this.lifecycle = lifecycle;
        }

        @Override
        public HealthCheckResponse call() {
            boolean pollerAlive = lifecycle.worker().map(Worker::isHealthy).orElse(true);
            boolean up = state.phase() != WorkerState.Phase.FAILED && pollerAlive;
            return HealthCheckResponse.named("gpu-worker").status(up).withData("phase", state.phase().name())
                    .build();
        }
    }
}
