package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import java.util.ArrayList;
import java.util.List;

/**
 * The tier's GPU instances (Managed Instances, or with {@link Lever#WARM_POOL} an EC2 Auto Scaling group with a warm
 * pool) and their bill: launch, reuse of an idle one, termination after the idle time, the pool's refill.
 */
final class InstanceFleet {
    private final EventClock clock;
    private final Platform platform;
    private final Tier tier;
    private final ColdStart coldStart;
    private final List<Instance> open = new ArrayList<>();
    private double closedCost;
    private double closedInstanceSeconds;
    /** Prepared, stopped instances of the warm pool, and when the one being prepared is ready. */
    private int warmInstances;
    private double refillReadyAt = Double.NaN;

    InstanceFleet(EventClock clock, Platform platform, Tier tier, ColdStart coldStart) {
        this.clock = clock;
        this.platform = platform;
        this.tier = tier;
        this.coldStart = coldStart;
        this.warmInstances = coldStart.has(Lever.WARM_POOL) ? platform.warmPoolSize() : 0;
    }

    /** An instance serving from the trace's start (a warm window): billed from t = 0. */
    Instance prewarmed() {
        Instance instance = new Instance(0, false, coldStart.has(Lever.WARM_POOL), 0, ColdStart.Capacity.IDLE);
        open.add(instance);
        return instance;
    }

    /** An open, uninterrupted instance without a task, of the given purchase option, or null. */
    Instance idle(boolean spot) {
        return open.stream()
                .filter(i -> i.open() && !i.interrupted && !i.occupied && i.spot == spot)
                .findFirst().orElse(null);
    }

    /** A new instance, from the warm pool when it holds one (On-Demand only); {@code woken}: the router's wake. */
    Instance launch(boolean spot, boolean woken) {
        ColdStart.Capacity from = ColdStart.Capacity.NEW;
        if (warmInstances > 0 && !spot) {
            warmInstances--;
            from = ColdStart.Capacity.WARM_POOL;
        }
        double now = clock.now();
        // billed from the group's launch (or start) on, not while ECS managed scaling's alarm waits
        Instance instance = new Instance(now + coldStart.capacitySignalSeconds(from, woken), spot,
                coldStart.has(Lever.WARM_POOL), now + coldStart.capacitySeconds(from, woken), from);
        open.add(instance);
        return instance;
    }

    /** Its task left: the instance idles, and is terminated if no task takes it within the idle time. */
    void release(Instance instance) {
        instance.occupied = false;
        double idleSince = clock.now();
        instance.idleSince = idleSince;
        clock.schedule(idleSince + platform.idleInstanceSeconds(), () -> {
            if (!instance.occupied && instance.idleSince == idleSince && instance.open()) {
                terminate(instance);
            }
        });
    }

    void terminate(Instance instance) {
        if (!instance.open()) {
            return;
        }
        double now = clock.now();
        instance.terminated = now;
        open.remove(instance);
        double seconds = Math.max(0, now - instance.launched);
        closedInstanceSeconds += seconds;
        closedCost += seconds / 3600 * pricePerHour(instance);
        refillWarmPool();
    }

    /**
     * ECS forbids returning instances to the warm pool on scale-in (ReuseOnScaleIn), so the group launches a new one
     * into the pool: it boots, pulls the images and stops, billed while it runs.
     */
    private void refillWarmPool() {
        if (!coldStart.has(Lever.WARM_POOL) || warmInstances >= platform.warmPoolSize()
                || !Double.isNaN(refillReadyAt)) {
            return;
        }
        double seconds = coldStart.refillSeconds();
        closedInstanceSeconds += seconds;
        closedCost += seconds / 3600 * platform.onDemandPerHour(tier, false);
        refillReadyAt = clock.now() + seconds;
        clock.schedule(refillReadyAt, () -> {
            warmInstances++;
            refillReadyAt = Double.NaN;
            refillWarmPool();
        });
    }

    private double pricePerHour(Instance instance) {
        return instance.spot ? platform.spotPerHour(tier) : platform.onDemandPerHour(tier, !instance.ec2);
    }

    /** Instances so far, plus the warm pool's stopped volumes. */
    double cost() {
        double now = clock.now();
        double running = 0;
        for (Instance i : open) {
            running += Math.max(0, now - i.launched) / 3600 * pricePerHour(i);
        }
        return closedCost + running + now * coldStart.warmPoolStoragePerSecond();
    }

    double instanceHours() {
        double now = clock.now();
        double running = open.stream().mapToDouble(i -> Math.max(0, now - i.launched)).sum();
        return (closedInstanceSeconds + running) / 3600;
    }
}
