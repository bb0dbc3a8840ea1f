package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import java.util.Objects;

/** One arrival of a trace: when (seconds after the trace start), which tier it goes to, how many tokens it asks for. */
public record Job(int id, double arrival, Tier tier, int maxTokens) {
    public Job {
        Objects.requireNonNull(tier, "tier");
        if (arrival < 0 || maxTokens < 1) {
            throw new IllegalArgumentException("job " + id + ": arrival must be >= 0 and maxTokens >= 1");
        }
    }
}
