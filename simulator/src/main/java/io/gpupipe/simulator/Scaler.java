package io.gpupipe.simulator;

import io.gpupipe.model.scaling.WarmWindow;

/** A scaling policy's control loop, called once per metric period, over a {@link ScalableTarget}. */
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
}
