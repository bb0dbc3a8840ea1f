package io.gpupipe.simulator;

import java.util.ArrayList;
import java.util.List;

/** One sample per metric period: time, jobs waiting or in flight, active and serving tasks, cumulative cost. */
final class Recording {
    /** One sample. */
    record Sample(double at, int jobs, int tasks, int serving, double cost) {
    }

    private final List<Sample> samples = new ArrayList<>();

    void sample(double at, int jobs, int tasks, int serving, double cost) {
        samples.add(new Sample(at, jobs, tasks, serving, cost));
    }

    List<Sample> samples() {
        return samples;
    }

    /** Sums recordings of several tiers sampled at the same times. */
    static Recording sum(List<Recording> recordings) {
        Recording total = new Recording();
        if (recordings.isEmpty()) {
            return total;
        }
        int n = recordings.stream().mapToInt(r -> r.samples.size()).min().orElse(0);
        for (int i = 0; i < n; i++) {
            double at = recordings.get(0).samples.get(i).at();
            int jobs = 0;
            int tasks = 0;
            int serving = 0;
            double cost = 0;
            for (Recording r : recordings) {
                Sample s = r.samples.get(i);
                jobs += s.jobs();
                tasks += s.tasks();
                serving += s.serving();
                cost += s.cost();
            }
            total.sample(at, jobs, tasks, serving, cost);
        }
        return total;
    }
}
