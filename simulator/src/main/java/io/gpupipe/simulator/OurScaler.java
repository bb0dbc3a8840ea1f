package io.gpupipe.simulator;

import io.gpupipe.model.scaling.ScalingInputs;
import io.gpupipe.model.scaling.ScalingLadder;
import io.gpupipe.model.scaling.ScalingPolicy;
import io.gpupipe.model.scaling.ScalingTargets;
import io.gpupipe.model.scaling.WarmWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * gpupipe: every minute the scaling-metric function reads the queue (GetQueueAttributes: visible, in flight) and
 * the service, and publishes {@link ScalingPolicy#decide} (the real shared-model code) next to the service's desired
 * count; {@code alarmDelaySeconds} later the three alarms of the {@link ScalingLadder} the CDK app synthesizes act on
 * it. A warm window's scheduled actions set the scalable target's minimum, and the function publishes at least it.
 */
final class OurScaler implements Scaler {
    private record Datapoint(double at, int wanted, int current, int sent) {
        int gap() {
            return wanted - current;
        }
    }

    private final ScalableTarget sim;
    private final ScalingLadder ladder;
    private final Optional<WarmWindow> warm;
    private final ScalingTargets targets;
    private final List<Datapoint> datapoints = new ArrayList<>();
    private double outCooldownUntil = Double.NEGATIVE_INFINITY;
    private double inCooldownUntil = Double.NEGATIVE_INFINITY;

    OurScaler(ScalableTarget sim, ScalingLadder ladder, Optional<WarmWindow> warm) {
        this.sim = sim;
        this.ladder = ladder;
        this.warm = warm;
        Platform p = sim.platform();
        this.targets = new ScalingTargets(p.backlogPerTask(), p.targetGpuUtilization(), p.maxTasks(sim.tier()));
    }

    @Override
    public void start() {
        int minimum = warm.map(w -> w.minimumAt(sim.trace().start())).orElse(0);
        sim.prewarm(minimum);
    }

    /** The scaling function run by the router's wake: the same decision as a scheduled run, at once. */
    @Override
    public int wakeTasks() {
        int minimum = warm.map(w -> w.minimumAt(sim.trace().start().plusSeconds((long) sim.now()))).orElse(0);
        ScalingInputs inputs = new ScalingInputs(sim.visible(), sim.inFlight(), 0, sim.runningTasks(), sim.desired(),
                OptionalDouble.empty());
        return ScalingPolicy.decide(inputs, targets, minimum).desiredTasks();
    }

    @Override
    public void tick(double t) {
        int minimum = warm.map(w -> w.minimumAt(sim.trace().start().plusSeconds((long) t))).orElse(0);
        sim.setMinCapacity(minimum);
        evaluateAlarms(t);
        double gpu = sim.gpuUtilizationPercent(sim.platform().metricPeriodSeconds());
        ScalingInputs inputs = new ScalingInputs(sim.visible(), sim.inFlight(), 0, sim.runningTasks(), sim.desired(),
                Double.isNaN(gpu) ? OptionalDouble.empty() : OptionalDouble.of(gpu));
        int wanted = ScalingPolicy.decide(inputs, targets, minimum).desiredTasks();
        datapoints.add(new Datapoint(t, wanted, sim.desired(), sim.sentThisPeriod()));
        if (datapoints.size() > 32) {
            datapoints.remove(0);
        }
    }

    private void evaluateAlarms(double t) {
        int seen = 0;
        while (seen < datapoints.size() && datapoints.get(seen).at() <= t - sim.platform().alarmDelaySeconds()) {
            seen++;
        }
        if (seen == 0) {
            return;
        }
        Datapoint latest = datapoints.get(seen - 1);
        int add = ladder.scaleOutAdjustment(latest.gap());
        if (add > 0 && t >= outCooldownUntil) {
            sim.setDesired(sim.desired() + add);
            outCooldownUntil = t + ladder.scaleOutCooldown().toSeconds();
            return;
        }
        if (last(seen, ladder.idleMinutes()).stream().allMatch(d -> ScalingLadder.isIdleMinute(d.wanted(), d.sent()))
                && seen >= ladder.idleMinutes() && sim.desired() > 0) {
            sim.setDesired(0);
            return;
        }
        if (seen >= ladder.scaleInMinutes() && t >= inCooldownUntil && t >= outCooldownUntil
                && last(seen, ladder.scaleInMinutes()).stream()
                        .allMatch(d -> ScalingLadder.scaleInGap(d.wanted(), d.current())
                                <= ScalingLadder.SCALE_IN_THRESHOLD)) {
            sim.setDesired(sim.desired() + ladder.scaleInAdjustment());
            inCooldownUntil = t + ladder.scaleInAfter().toSeconds();
        }
    }

    private List<Datapoint> last(int seen, int n) {
        return datapoints.subList(Math.max(0, seen - n), seen);
    }
}
