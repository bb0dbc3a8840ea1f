package io.gpupipe.simulator;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** A named list of arrivals starting at {@code start}, simulated for {@code horizonSeconds}. */
public record Trace(String name, String description, Instant start, double horizonSeconds, List<Job> jobs) {
    public Trace {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(start, "start");
        jobs = jobs.stream().sorted(Comparator.comparingDouble(Job::arrival)).toList();
        if (!jobs.isEmpty() && jobs.get(jobs.size() - 1).arrival() > horizonSeconds) {
            throw new IllegalArgumentException("trace " + name + ": a job arrives after the horizon");
        }
    }

    /** The arrivals of one tier. */
    public List<Job> jobs(SimulatedTier tier) {
        return jobs.stream().filter(j -> j.tier() == tier).toList();
    }

    /** Simulated days (for $ per day). */
    public double days() {
        return horizonSeconds / 86_400;
    }
}
