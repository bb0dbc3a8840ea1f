package io.gpupipe.scaling;

/** An ECS service's running and desired task counts. */
public record TaskCounts(int running, int desired) {
}
