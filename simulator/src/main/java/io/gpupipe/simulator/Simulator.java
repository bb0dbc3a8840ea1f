package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.Task;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.DoubleConsumer;

/**
 * Runs a trace under a policy (and levers), every catalogue tier that has jobs simulated on its own queue and
 * service; the catalogue's default text tier always runs (its idle cost counts even without jobs).
 */
public final class Simulator {
    private final Platform platform;
    private final long seed;

    public Simulator(Platform platform, long seed) {
        this.platform = platform;
        this.seed = seed;
    }

    public RunResult run(Trace trace, Policy policy) {
        return run(trace, policy, EnumSet.noneOf(Lever.class), fraction -> { });
    }

    /** As {@link #run(Trace, Policy)}, reporting progress (0–1) of simulated time. */
    public RunResult run(Trace trace, Policy policy, DoubleConsumer progress) {
        return run(trace, policy, EnumSet.noneOf(Lever.class), progress);
    }

    /** {@code policy} with {@code levers} deployed. */
    public RunResult run(Trace trace, Policy policy, Set<Lever> levers) {
        return run(trace, policy, levers, fraction -> { });
    }

    public RunResult run(Trace trace, Policy policy, Set<Lever> levers, DoubleConsumer progress) {
        requireLeversFit(policy, levers);
        List<TierOutcome> outcomes = new ArrayList<>();
        List<Tier> catalogue = TierCatalogue.bundled().names();
        Tier text = TierCatalogue.bundled().defaultTier(Task.GENERATE);
        for (int i = 0; i < catalogue.size(); i++) {
            Tier tier = catalogue.get(i);
            if (!trace.jobs(tier).isEmpty() || tier.equals(text)) {
                long tierSeed = seed * 31 + i;
                outcomes.add(new TierSimulation(platform, policy, levers, tier, trace, tierSeed, progress).run());
            }
        }
        return RunResult.of(trace, policy, levers, platform, outcomes);
    }

    /** The levers are gpupipe's deploy options; a warm pool holds no Spot instances (EC2 Auto Scaling). */
    static void requireLeversFit(Policy policy, Set<Lever> levers) {
        if (levers.isEmpty()) {
            return;
        }
        boolean ours = switch (policy) {
            case SEED_000, SEED_001 -> false;
            case OURS, OURS_WARM, OURS_SPOT -> true;
        };
        if (!ours) {
            throw new IllegalArgumentException("levers are gpupipe's deploy options; " + policy.label()
                    + " has none");
        }
        if (policy == Policy.OURS_SPOT && levers.contains(Lever.WARM_POOL)) {
            throw new IllegalArgumentException("a warm pool cannot hold Spot instances (EC2 Auto Scaling warm "
                    + "pools: no group that launches Spot): ours+spot takes no warmpool");
        }
    }
}
