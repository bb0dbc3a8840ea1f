package io.gpupipe.simulator;

import io.gpupipe.model.scaling.ScalingLadder;
import io.gpupipe.model.scaling.WarmWindow;
import java.util.Optional;

/** A scaling policy's control loop, called once per metric period. */
interface Scaler {
    /**
     * The warm window {@link Policy#OURS_WARM} replays on the catalogue's default text tier (seed 001's example for
     * its small tier: 1 task Mon–Fri 08–18).
     */
    WarmWindow OFFICE_HOURS = WarmWindow.parse("MON-FRI 08:00-18:00 UTC 1");

    void tick(double t);

    /** The state the trace starts in (a warm window already open has its tasks running); default: nothing. */
    default void start() {
    }

    /** The tasks the scaling function sets when the router wakes an idle tier ({@link Lever#WAKE}). */
    default int wakeTasks() {
        return 1;
    }

    static Scaler of(Policy policy, TierSimulation sim) {
        return switch (policy) {
            case SEED_000 -> new Seed000Scaler(sim);
            case SEED_001 -> new Seed001Scaler(sim);
            case OURS, OURS_SPOT -> new OurScaler(sim, ScalingLadder.defaults(sim.definition()), Optional.empty());
            case OURS_WARM -> new OurScaler(sim, ScalingLadder.defaults(sim.definition()),
                    sim.tier.equals(Traces.TEXT) ? Optional.of(OFFICE_HOURS) : Optional.empty());
        };
    }
}
