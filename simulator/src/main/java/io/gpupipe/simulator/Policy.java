package io.gpupipe.simulator;

/** The scaling policies replayed on every trace. */
public enum Policy {
    /** Seed 000: alarm on the SQS visible-messages metric ≥ 1 → 1 task; 5 idle minutes → 0; one job at a time. */
    SEED_000("seed000"),
    /** Seed 001: max(visible/5, gpuMemory/80) > 1 → +1 task; < 1 for 5 minutes → 0; one job at a time. */
    SEED_001("seed001"),
    /** gpupipe: the shared-model ScalingPolicy, the CDK ladder (whole gap out, −1 in, idle → 0), window 16. */
    OURS("ours"),
    /** gpupipe with a warm window MON-FRI 08:00-18:00 UTC keeping 1 task. */
    OURS_WARM("ours+warm"),
    /** gpupipe with the first task On-Demand and every further task on Spot (interruptions drain). */
    OURS_SPOT("ours+spot");

    private final String label;

    Policy(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Parses a label (as printed) or constant name. */
    public static Policy of(String text) {
        for (Policy p : values()) {
            if (p.label.equalsIgnoreCase(text) || p.name().equalsIgnoreCase(text)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown policy '" + text + "' (seed000, seed001, ours, ours+warm, "
                + "ours+spot)");
    }
}
