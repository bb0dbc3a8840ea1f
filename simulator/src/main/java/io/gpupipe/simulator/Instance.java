package io.gpupipe.simulator;

/** A GPU instance; one task at a time (one GPU, or all eight for the large tier). */
final class Instance {
    final double launched;
    final boolean spot;
    /** A plain EC2 instance of the warm-pool variant's group: no Managed Instances fee. */
    final boolean ec2;
    double terminated = Double.NaN;
    boolean interrupted;
    /** A task runs on it (the task knows which instance it runs on), until the instance is released. */
    boolean occupied;
    double idleSince;
    /** When the instance can start a task (a stopped task does not stop its launch). */
    double readyAt;
    /** What a task starting on it still has to do: everything, not the pull (warm pool), or neither (idle). */
    ColdStart.Capacity loadAs;

    Instance(double launched, boolean spot, boolean ec2, double readyAt, ColdStart.Capacity loadAs) {
        this.launched = launched;
        this.spot = spot;
        this.ec2 = ec2;
        this.readyAt = readyAt;
        this.loadAs = loadAs;
    }

    boolean open() {
        return Double.isNaN(terminated);
    }
}
