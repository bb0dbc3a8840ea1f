package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
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
    public List<Job> jobs(Tier tier) {
        return jobs.stream().filter(j -> j.tier().equals(tier)).toList();
    }

    /** The same arrivals, every one sent to {@code tier} (a tier's cold start on the same trace). */
    public Trace onTier(Tier tier) {
        return new Trace(name, description, start, horizonSeconds,
                jobs.stream().map(j -> new Job(j.id(), j.arrival(), tier, j.maxTokens())).toList());
    }

    /** The tiers that receive jobs, in order of their first arrival. */
    public List<Tier> tiers() {
        return jobs.stream().map(Job::tier).distinct().toList();
    }

    /** Simulated days (for $ per day). */
    public double days() {
        return horizonSeconds / 86_400;
    }
}
