package io.gpupipe.simulator;

import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The simulation's clock and its pending events. Time is seconds after the trace start; events at the same time run
 * in scheduling order, so a run is deterministic for a seed.
 */
final class EventClock {
    private record Event(double at, long seq, Runnable action) {
    }

    private final PriorityQueue<Event> events = new PriorityQueue<>(
            Comparator.comparingDouble(Event::at).thenComparingLong(Event::seq));
    private long seq;
    private double now;

    double now() {
        return now;
    }

    void schedule(double at, Runnable action) {
        events.add(new Event(at, seq++, action));
    }

    /** Runs the events due up to {@code horizon}, then stands at {@code horizon}; later events never run. */
    void runUntil(double horizon) {
        while (!events.isEmpty() && events.peek().at() <= horizon) {
            Event e = events.poll();
            now = e.at();
            e.action().run();
        }
        now = horizon;
    }
}
