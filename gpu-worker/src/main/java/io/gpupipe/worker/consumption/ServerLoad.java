package io.gpupipe.worker.consumption;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the model server is doing right now: sequences in its running batch, and requests queued inside it waiting
 * for a batch slot (vLLM's {@code vllm:num_requests_running} / {@code vllm:num_requests_waiting}).
 */
public record ServerLoad(int running, int waiting) {
    public static final String RUNNING_METRIC = "vllm:num_requests_running";
    public static final String WAITING_METRIC = "vllm:num_requests_waiting";

    public ServerLoad {
        if (running < 0 || waiting < 0) {
            throw new IllegalArgumentException("counts cannot be negative");
        }
    }

    /** Reads the two gauges from a Prometheus text exposition; empty when the server does not export them. */
    public static Optional<ServerLoad> fromPrometheus(String exposition) {
        OptionalDouble waiting = PrometheusText.sum(exposition, WAITING_METRIC);
        if (waiting.isEmpty()) {
            return Optional.empty();
        }
        OptionalDouble running = PrometheusText.sum(exposition, RUNNING_METRIC);
        return Optional.of(new ServerLoad((int) Math.round(running.orElse(0)), (int) Math.round(waiting.getAsDouble())));
    }
}
