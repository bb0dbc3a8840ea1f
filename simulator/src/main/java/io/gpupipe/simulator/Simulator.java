package io.gpupipe.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleConsumer;

/** Runs a trace under a policy, every tier that has jobs simulated on its own queue and service. */
public final class Simulator {
    private final Platform platform;
    private final long seed;

    public Simulator(Platform platform, long seed) {
        this.platform = platform;
        this.seed = seed;
    }

    public RunResult run(Trace trace, Policy policy) {
        return run(trace, policy, fraction -> { });
    }

    /** As {@link #run(Trace, Policy)}, reporting progress (0–1) of simulated time. */
    public RunResult run(Trace trace, Policy policy, DoubleConsumer progress) {
        List<TierOutcome> outcomes = new ArrayList<>();
        for (SimulatedTier tier : SimulatedTier.values()) {
            if (!trace.jobs(tier).isEmpty() || tier == SimulatedTier.SMALL) {
                long tierSeed = seed * 31 + tier.ordinal();
                outcomes.add(new TierSimulation(platform, policy, tier, trace, tierSeed, progress).run());
            }
        }
        return RunResult.of(trace, policy, platform, outcomes);
    }
}
