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
    /** When it last went from no job to one (NaN while idle), and its busy time since the last utilisation reading. */
    private double busySince = Double.NaN;
    private double busySeconds;

    Task(Instance instance, State state) {
        this.instance = instance;
        this.state = state;
    }

    /** Takes a job; an idle task is busy from {@code now}. */
    void take(Running job, double now) {
        if (running.isEmpty()) {
            busySince = now;
        }
        running.add(job);
    }

    /** Removes a finished job; false when it is no longer here (an interruption handed it back to the queue). */
    boolean finish(Running job, double now) {
        if (!running.remove(job)) {
            return false;
        }
        if (running.isEmpty()) {
            busySeconds += now - busySince;
            busySince = Double.NaN;
        }
        return true;
    }

    /** Busy seconds since the last reading, at most {@code period}; the next reading counts from {@code now}. */
    double readBusySeconds(double now, double period) {
        double seconds = busySeconds + (Double.isNaN(busySince) ? 0 : now - busySince);
        busySeconds = 0;
        busySince = Double.isNaN(busySince) ? Double.NaN : now;
        return Math.min(period, seconds);
    }

    /** Counts towards the service's desired count: neither stopped nor draining. */
    boolean active() {
        return state != State.STOPPED && state != State.DRAINING;
    }
}
