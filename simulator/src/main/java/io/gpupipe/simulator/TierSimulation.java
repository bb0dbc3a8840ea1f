package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.scaling.ScalingLadder;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.DoubleConsumer;

/**
 * Discrete-event simulation of one tier under one policy: the trace's arrivals into an SQS queue, the router's
 * result cache and wake, the scalable target whose desired count the policy's {@link Scaler} drives, the
 * {@link EcsService} whose polling workers take jobs with continuous batching, on an {@link InstanceFleet} that bills
 * them. Time runs on an {@link EventClock}, so a run is deterministic for a seed.
 */
final class TierSimulation implements ScalableTarget {
    final Platform platform;
    final Policy policy;
    final Tier tier;
    final Trace trace;
    private final ColdStart coldStart;
    private final List<Job> jobs;
    private final EventClock clock = new EventClock();
    private final InstanceFleet fleet;
    private final EcsService service;
    private final Deque<Integer> queue = new ArrayDeque<>();
    private final double[] resultAt;
    /** Its own stream, so that a hit rate leaves the Spot interruptions of a seed where they were. */
    private final SplittableRandom cacheRandom;
    private int gpuRuns;
    private int cacheHits;
    private final Scaler scaler;
    private final DoubleConsumer progress;
    private final Recording recording = new Recording();
    private final ColdStartTimeline.Builder timeline = new ColdStartTimeline.Builder();
    private int minCapacity;
    /** The minimum the warm window's scheduled actions set, and the one a wake holds for a while. */
    private int scheduledMinimum;
    private int wakeMinimum;
    private int maxVisibleThisPeriod;
    private int sentThisPeriod;
    private boolean wakePending;
    /** Set while the router's wake sets the desired count: it also set the group's desired capacity. */
    private boolean woken;

    TierSimulation(Platform platform, Policy policy, Set<Lever> levers, Tier tier, Trace trace, long seed,
                   DoubleConsumer progress) {
        this.platform = platform;
        this.policy = policy;
        this.tier = tier;
        this.coldStart = new ColdStart(platform, tier, levers);
        this.trace = trace;
        this.jobs = trace.jobs(tier);
        this.resultAt = new double[jobs.size()];
        Arrays.fill(resultAt, Double.NaN);
        this.fleet = new InstanceFleet(clock, platform, tier, coldStart);
        this.service = new EcsService(clock, platform, policy, coldStart, fleet, timeline, seed, queue::addFirst,
                this::dispatch);
        this.cacheRandom = new SplittableRandom(~seed);
        this.progress = progress;
        this.scaler = scaler(policy);
    }

    /** Runs the whole trace and returns what happened. */
    TierOutcome run() {
        scaler.start();
        for (int i = 0; i < jobs.size(); i++) {
            int index = i;
            clock.schedule(jobs.get(i).arrival(), () -> arrive(index));
        }
        for (double t = 0; t <= trace.horizonSeconds(); t += platform.metricPeriodSeconds()) {
            double tick = t;
            clock.schedule(tick, () -> minute(tick));
        }
        clock.runUntil(trace.horizonSeconds());
        return new TierOutcome(tier, jobs, resultAt, fleet.cost(), fleet.instanceHours(), service.interruptions(),
                recording, gpuRuns, cacheHits, timeline.build(jobs.isEmpty() ? Double.NaN : resultAt[0]));
    }

    private void minute(double t) {
        scaler.tick(t);
        maxVisibleThisPeriod = queue.size();
        sentThisPeriod = 0;
        recording.sample(t, queue.size() + inFlight(), service.activeTasks(), service.pollingTasks(), fleet.cost());
        progress.accept(t / trace.horizonSeconds());
    }

    private void arrive(int index) {
        double now = clock.now();
        if (platform.cacheHitRate() > 0 && cacheRandom.nextDouble() < platform.cacheHitRate()) {
            // answered by the router from the result cache: no message, no GPU
            cacheHits++;
            resultAt[index] = now + platform.cacheHitSeconds();
            return;
        }
        queue.add(index);
        sentThisPeriod++;
        maxVisibleThisPeriod = Math.max(maxVisibleThisPeriod, queue.size());
        timeline.arrived(now);
        if (coldStart.has(Lever.WAKE) && service.desired() == 0 && !wakePending) {
            wakePending = true;
            clock.schedule(now + platform.wakeSeconds(), this::wake);
        }
        dispatch();
    }

    /**
     * The router's wake reached the scaling function: if the tier is still at zero it raises the scalable target's
     * minimum to the tasks it wants (Application Auto Scaling sets the desired count to it, and the to-zero alarm,
     * still in ALARM, cannot undo it), sets the Auto Scaling group's capacity too, and schedules the minimum back.
     */
    private void wake() {
        wakePending = false;
        if (service.desired() == 0) {
            woken = true;
            wakeMinimum = scaler.wakeTasks();
            applyMinimum();
            woken = false;
            clock.schedule(clock.now() + platform.wakeHoldSeconds(), () -> {
                wakeMinimum = 0;
                applyMinimum();
            });
        }
    }

    /** The policy's scaler, driving this tier. */
    private Scaler scaler(Policy policy) {
        return switch (policy) {
            case SEED_000 -> new Seed000Scaler(this);
            case SEED_001 -> new Seed001Scaler(this);
            case OURS, OURS_SPOT -> new OurScaler(this, ScalingLadder.defaults(definition()), Optional.empty());
            case OURS_WARM -> new OurScaler(this, ScalingLadder.defaults(definition()),
                    tier.equals(Traces.TEXT) ? Optional.of(Scaler.OFFICE_HOURS) : Optional.empty());
        };
    }

    /** The catalogue's definition of the tier (scaling ladder, task ceiling). */
    TierDefinition definition() {
        return platform.tier(tier).definition();
    }

    // ------------------------------------------------------------------ what the scalers see and do

    @Override
    public Platform platform() {
        return platform;
    }

    @Override
    public Tier tier() {
        return tier;
    }

    @Override
    public Trace trace() {
        return trace;
    }

    @Override
    public double now() {
        return clock.now();
    }

    @Override
    public int desired() {
        return service.desired();
    }

    @Override
    public int visible() {
        return queue.size();
    }

    @Override
    public int sentThisPeriod() {
        return sentThisPeriod;
    }

    @Override
    public int maxVisibleThisPeriod() {
        return maxVisibleThisPeriod;
    }

    @Override
    public int inFlight() {
        return service.inFlight();
    }

    @Override
    public int runningTasks() {
        return service.runningTasks();
    }

    @Override
    public double gpuUtilizationPercent(double period) {
        return service.gpuUtilizationPercent(period);
    }

    @Override
    public void setDesired(int count) {
        int desired = Math.max(minCapacity, Math.min(count, platform.maxTasks(tier)));
        if (desired > 0) {
            timeline.desired(clock.now());
        }
        service.setDesired(desired, woken);
    }

    @Override
    public void prewarm(int count) {
        minCapacity = count;
        scheduledMinimum = count;
        service.prewarm(count);
    }

    @Override
    public void setMinCapacity(int min) {
        scheduledMinimum = min;
        applyMinimum();
    }

    private void applyMinimum() {
        minCapacity = Math.max(scheduledMinimum, wakeMinimum);
        if (service.desired() < minCapacity) {
            setDesired(minCapacity);
        }
    }

    // ------------------------------------------------------------------ workers

    private int window() {
        return policy == Policy.SEED_000 || policy == Policy.SEED_001 ? platform.seedWindow() : platform.ourWindow();
    }

    /** Polling workers take waiting jobs up to their window, the least busy first. */
    private void dispatch() {
        while (!queue.isEmpty()) {
            Task task = service.leastBusyPolling(window());
            if (task == null) {
                return;
            }
            int index = queue.poll();
            Job job = jobs.get(index);
            int concurrent = task.running.size() + 1;
            double seconds = platform.singleJobSeconds(tier, job.maxTokens()) * concurrent
                    / platform.batchSpeedup(concurrent);
            double now = clock.now();
            Task.Running running = new Task.Running(index, job, now + seconds);
            gpuRuns++;
            task.take(running, now);
            clock.schedule(running.end(), () -> finish(task, running));
        }
    }

    private void finish(Task task, Task.Running running) {
        if (task.finish(running, clock.now())) {
            resultAt[running.index()] = clock.now();
            service.finished(task);
            dispatch();
        }
    }
}
