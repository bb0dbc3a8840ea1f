package io.gpupipe.simulator;

import java.util.ArrayList;
import java.util.List;

/** One ECS task: a worker with its model server, and the jobs it is processing. */
final class Task {
    enum State { PROVISIONING, LOADING, POLLING, DRAINING, STOPPED }

    /** A job being processed, finishing at {@code end}. */
    record Running(int index, Job job, double end) {
    }

    final Instance instance;
    State state;
    final List<Running> running = new ArrayList<>();
    double busySince = Double.NaN;
    double busySeconds;

    Task(Instance instance, State state) {
        this.instance = instance;
        this.state = state;
    }

    /** Counts towards the service's desired count: neither stopped nor draining. */
    boolean active() {
        return state != State.STOPPED && state != State.DRAINING;
    }
}
