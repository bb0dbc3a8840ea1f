package io.gpupipe.worker;

import jakarta.enterprise.context.ApplicationScoped;

/** Where the worker process is in its life; read by the health checks. */
@ApplicationScoped
public class WorkerState {

    /** Phases in order; FAILED is terminal. */
    public enum Phase {
        STARTING, WARMING_UP, READY, DRAINING, STOPPED, FAILED
    }

    private volatile Phase phase = Phase.STARTING;
    private volatile String detail = "starting";

    public Phase phase() {
        return phase;
    }

    public String detail() {
        return detail;
    }

    public synchronized void moveTo(Phase next, String why) {
        if (phase == Phase.FAILED || (phase == Phase.DRAINING && next != Phase.STOPPED)) {
            return;
        }
        phase = next;
        detail = why;
    }

    public synchronized boolean isShuttingDown() {
        return phase == Phase.DRAINING || phase == Phase.STOPPED;
    }
}
