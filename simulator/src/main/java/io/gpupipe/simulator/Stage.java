package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import java.util.List;
import java.util.Locale;

/** The stages of a first job from zero, in order; the chart's colours and the budget table's rows. */
enum Stage {
    SIGNAL("scaling signal"),
    CAPACITY("capacity"),
    IMAGE_PULL("image pull"),
    WEIGHTS("weights into GPU memory"),
    ENGINE("engine start"),
    READINESS("worker readiness"),
    JOB("first job (queue + inference)");

    /** One stage's length in one run. */
    record Span(Stage stage, double seconds) {
    }

    private final String label;

    Stage(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /**
     * The first cold start of {@code outcome}, stage by stage: signal and capacity as simulated, the task's start
     * split by {@code coldStart}'s figures, then the wait and inference of the first job.
     */
    static List<Span> of(TierOutcome outcome, ColdStart coldStart) {
        ColdStartTimeline t = outcome.coldStart();
        ColdStart.Capacity from = t.capacity() == null ? ColdStart.Capacity.NEW : t.capacity();
        double job = Double.isNaN(t.firstResultAt()) || Double.isNaN(t.pollingAt()) ? Double.NaN
                : t.firstResultAt() - Math.max(t.pollingAt(), t.arrival());
        return List.of(new Span(SIGNAL, t.signalSeconds()), new Span(CAPACITY, t.capacitySeconds()),
                new Span(IMAGE_PULL, coldStart.pullSeconds(from)), new Span(WEIGHTS, coldStart.weightsSeconds(from)),
                new Span(ENGINE, coldStart.engineSeconds()), new Span(READINESS, coldStart.readinessSeconds()),
                new Span(JOB, job));
    }

    /** Where this stage's figures come from (docs/cold-start.md lists the full citations). */
    String source(Platform p, Tier tier) {
        TierFigures f = p.tier(tier);
        return switch (this) {
            case SIGNAL -> String.format(Locale.ROOT, "today: the next scheduled scaling run (every %.0f s) plus "
                    + "%.0f s to the alarm's action (seed 000); wake: %.0f s (async Invoke, Quarkus JVM Lambda cold "
                    + "start p50 3.3 s, ECS calls)", p.metricPeriodSeconds(), p.alarmDelaySeconds(), p.wakeSeconds());
            case CAPACITY -> String.format(Locale.ROOT, "Managed Instances: %.0f s (seed 001, \"~5 min\"); warm pool: "
                    + "%.0f s from stopped (AWS: \"as low as 30 seconds\", doubled for the GPU AMI and ECS agent), "
                    + "+%.0f s ECS managed-scaling alarm unless the wake sets the group", p.provisioningSeconds(),
                    p.warmStartSeconds(), p.capacitySignalSeconds());
            case IMAGE_PULL -> String.format(Locale.ROOT, "(%.2f GiB compressed + %.0f GiB unpacked vLLM image, + 2 × "
                    + "%.2f GiB weights when baked) / %.0f MiB/s gp3 baseline (seed 001 image size; EBS gp3; "
                    + "moby/moby#37957); 0 from a warm-pool instance (pulled when prepared)", p.imageCompressedGiB(),
                    p.imageUnpackedGiB(), f.weightsGiB().value(), p.volumeMiBps());
            case WEIGHTS -> String.format(Locale.ROOT, "%.2f GiB: baked, from the page cache at %.0f GiB/s "
                    + "(marin#7136) or off the stopped volume at %.0f MiB/s; streamed from S3 at %.2f GiB/s "
                    + "(Run:ai Model Streamer benchmark, capped by %.2f GiB/s network)", f.weightsGiB().value(),
                    p.pageCacheGiBps(), p.volumeMiBps(), p.s3StreamGiBps(), f.networkGiBps().value());
            case ENGINE -> f.engineStartSeconds().source();
            case READINESS -> String.format(Locale.ROOT, "today: the model server's health-check interval (worst "
                    + "case; shared-model ModelServerHealthCheck) + %.0f s worker start (measured here) + %.0f s "
                    + "warm-up; ready: %.0f s retry interval + warm-up (the worker started with the server)",
                    p.workerStartSeconds(), p.warmUpSeconds(), p.readinessRetrySeconds());
            case JOB -> String.format(Locale.ROOT, "128 tokens at %.1f tokens/s (seed 001's example result) × %.0f "
                    + "slowdown", p.singleTokensPerSecond(), f.slowdown().value());
        };
    }
}
