package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierDefinition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.DoubleConsumer;

/**
 * Discrete-event simulation of one tier under one policy: an SQS queue, an ECS service whose desired count the
 * policy's {@link Scaler} drives, tasks on Managed Instances or, with {@link Lever#WARM_POOL}, an EC2 Auto Scaling
 * group with a warm pool (provisioning → model load → polling → draining; the stages' lengths are {@link ColdStart}'s)
 * and the instances' cost. Time is seconds after the trace start; events at the same time run in scheduling order, so
 * a run is deterministic for a seed.
 */
final class TierSimulation {
    enum TaskState { PROVISIONING, LOADING, POLLING, DRAINING, STOPPED }

    /** A GPU instance; one task at a time (one GPU, or all eight for the large tier). */
    static final class Instance {
        final double launched;
        final boolean spot;
        /** A plain EC2 instance of the warm-pool variant's group: no Managed Instances fee. */
        final boolean ec2;
        double terminated = Double.NaN;
        boolean interrupted;
        Task task;
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
    }

    /** One ECS task: a worker with its model server. */
    static final class Task {
        final Instance instance;
        TaskState state;
        final List<Running> running = new ArrayList<>();
        double busySince = Double.NaN;
        double busySeconds;

        Task(Instance instance, TaskState state) {
            this.instance = instance;
            this.state = state;
        }
    }

    /** A job being processed. */
    record Running(int index, Job job, double end) {
    }

    private record Event(double at, long seq, Runnable action) {
    }

    final Platform platform;
    final Policy policy;
    final Tier tier;
    final ColdStart coldStart;
    final Trace trace;
    private final List<Job> jobs;
    private final PriorityQueue<Event> events = new PriorityQueue<>(
            Comparator.comparingDouble(Event::at).thenComparingLong(Event::seq));
    private final Deque<Integer> queue = new ArrayDeque<>();
    final List<Task> tasks = new ArrayList<>();
    private final List<Instance> instances = new ArrayList<>();
    private final List<Instance> openInstances = new ArrayList<>();
    private final double[] resultAt;
    private final SplittableRandom random;
    /** Its own stream, so that a hit rate leaves the Spot interruptions of a seed where they were. */
    private final SplittableRandom cacheRandom;
    private int gpuRuns;
    private int cacheHits;
    private final Scaler scaler;
    private final DoubleConsumer progress;
    final Recording recording = new Recording();
    private long seq;
    double now;
    int desired;
    int minCapacity;
    /** The minimum the warm window's scheduled actions set, and the one a wake holds for a while. */
    private int scheduledMinimum;
    private int wakeMinimum;
    private int maxVisibleThisPeriod;
    private int sentThisPeriod;
    private double closedCost;
    private double closedInstanceSeconds;
    private int interruptions;
    /** Prepared, stopped instances of the warm pool, and when the one being prepared is ready. */
    private int warmInstances;
    private double refillReadyAt = Double.NaN;
    private boolean wakePending;
    /** Set while the router's wake sets the desired count: it also set the group's desired capacity. */
    private boolean woken;
    private final ColdStartTimeline.Builder timeline = new ColdStartTimeline.Builder();

    TierSimulation(Platform platform, Policy policy, Set<Lever> levers, Tier tier, Trace trace, long seed,
                   DoubleConsumer progress) {
        this.platform = platform;
        this.policy = policy;
        this.tier = tier;
        this.coldStart = new ColdStart(platform, tier, levers);
        this.warmInstances = coldStart.has(Lever.WARM_POOL) ? platform.warmPoolSize() : 0;
        this.trace = trace;
        this.jobs = trace.jobs(tier);
        this.resultAt = new double[jobs.size()];
        Arrays.fill(resultAt, Double.NaN);
        this.random = new SplittableRandom(seed);
        this.cacheRandom = new SplittableRandom(~seed);
        this.progress = progress;
        this.scaler = Scaler.of(policy, this);
    }

    /** Runs the whole trace and returns what happened. */
    TierOutcome run() {
        scaler.start();
        for (int i = 0; i < jobs.size(); i++) {
            int index = i;
            schedule(jobs.get(i).arrival(), () -> arrive(index));
        }
        for (double t = 0; t <= trace.horizonSeconds(); t += platform.metricPeriodSeconds()) {
            double tick = t;
            schedule(tick, () -> minute(tick));
        }
        while (!events.isEmpty() && events.peek().at() <= trace.horizonSeconds()) {
            Event e = events.poll();
            now = e.at();
            e.action().run();
        }
        now = trace.horizonSeconds();
        return new TierOutcome(tier, jobs, resultAt, cost(), instanceSeconds() / 3600, interruptions, recording,
                gpuRuns, cacheHits, timeline.build(jobs.isEmpty() ? Double.NaN : resultAt[0]));
    }

    void schedule(double at, Runnable action) {
        events.add(new Event(at, seq++, action));
    }

    private void minute(double t) {
        scaler.tick(t);
        maxVisibleThisPeriod = queue.size();
        sentThisPeriod = 0;
        recording.sample(t, queue.size() + inFlight(), activeTasks(), pollingTasks(), cost());
        progress.accept(t / trace.horizonSeconds());
    }

    private void arrive(int index) {
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
        if (coldStart.has(Lever.WAKE) && desired == 0 && !wakePending) {
            wakePending = true;
            schedule(now + platform.wakeSeconds(), this::wake);
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
        if (desired == 0) {
            woken = true;
            wakeMinimum = scaler.wakeTasks();
            applyMinimum();
            woken = false;
            schedule(now + platform.wakeHoldSeconds(), () -> {
                wakeMinimum = 0;
                applyMinimum();
            });
        }
    }

    /** The catalogue's definition of the tier (scaling ladder, task ceiling). */
    TierDefinition definition() {
        return platform.tier(tier).definition();
    }

    // ------------------------------------------------------------------ what the scalers see

    int visible() {
        return queue.size();
    }

    /** AWS/SQS NumberOfMessagesSent (Sum) of the period ending now. */
    int sentThisPeriod() {
        return sentThisPeriod;
    }

    int maxVisibleThisPeriod() {
        return maxVisibleThisPeriod;
    }

    int inFlight() {
        return tasks.stream().mapToInt(t -> t.running.size()).sum();
    }

    /** ECS runningCount: tasks whose containers run (loading, polling or draining). */
    int runningTasks() {
        return (int) tasks.stream().filter(t -> t.state == TaskState.LOADING || t.state == TaskState.POLLING
                || t.state == TaskState.DRAINING).count();
    }

    int pollingTasks() {
        return (int) tasks.stream().filter(t -> t.state == TaskState.POLLING).count();
    }

    int activeTasks() {
        return (int) tasks.stream().filter(t -> t.state != TaskState.STOPPED && t.state != TaskState.DRAINING).count();
    }

    /** Container Insights TaskGPUUtilization: share of the last period the service's polling tasks were busy. */
    double gpuUtilizationPercent(double period) {
        List<Task> serving = tasks.stream().filter(t -> t.state == TaskState.POLLING).toList();
        double busy = 0;
        for (Task task : serving) {
            double seconds = task.busySeconds + (Double.isNaN(task.busySince) ? 0 : now - task.busySince);
            busy += Math.min(period, seconds);
            task.busySeconds = 0;
            task.busySince = Double.isNaN(task.busySince) ? Double.NaN : now;
        }
        return serving.isEmpty() ? Double.NaN : 100 * busy / (period * serving.size());
    }

    /** Application Auto Scaling sets the service's desired count, clamped to [min, max]. */
    void setDesired(int count) {
        desired = Math.max(minCapacity, Math.min(count, platform.maxTasks(tier)));
        if (desired > 0) {
            timeline.desired(now);
        }
        reconcile();
    }

    /** The trace starts inside a warm window: {@code count} tasks already serve (their cost counts from t = 0). */
    void prewarm(int count) {
        minCapacity = count;
        scheduledMinimum = count;
        desired = count;
        for (int i = 0; i < count; i++) {
            Instance instance = new Instance(0, false, coldStart.has(Lever.WARM_POOL), 0, ColdStart.Capacity.IDLE);
            instances.add(instance);
            openInstances.add(instance);
            Task task = new Task(instance, TaskState.POLLING);
            instance.task = task;
            tasks.add(task);
        }
    }

    /** A scheduled action changes the minimum; the desired count is raised to it. */
    void setMinCapacity(int min) {
        scheduledMinimum = min;
        applyMinimum();
    }

    private void applyMinimum() {
        minCapacity = Math.max(scheduledMinimum, wakeMinimum);
        if (desired < minCapacity) {
            setDesired(minCapacity);
        }
    }

    // ------------------------------------------------------------------ ECS

    /** The ECS service scheduler: start or stop tasks until the active count matches the desired count. */
    private void reconcile() {
        while (activeTasks() < desired) {
            startTask();
        }
        while (activeTasks() > desired) {
            stopOneTask();
        }
    }

    private void startTask() {
        boolean spot = policy == Policy.OURS_SPOT && tasks.stream()
                .anyMatch(t -> t.state != TaskState.STOPPED && t.state != TaskState.DRAINING && !t.instance.spot);
        Instance idle = openInstances.stream()
                .filter(i -> Double.isNaN(i.terminated) && !i.interrupted && i.task == null && i.spot == spot)
                .findFirst().orElse(null);
        if (idle != null) {
            place(idle);
            return;
        }
        ColdStart.Capacity from = ColdStart.Capacity.NEW;
        if (warmInstances > 0 && !spot) {
            warmInstances--;
            from = ColdStart.Capacity.WARM_POOL;
        }
        // billed from the group's launch (or start) on, not while ECS managed scaling's alarm waits
        Instance instance = new Instance(now + coldStart.capacitySignalSeconds(from, woken), spot,
                coldStart.has(Lever.WARM_POOL), now + coldStart.capacitySeconds(from, woken), from);
        instances.add(instance);
        openInstances.add(instance);
        place(instance);
        if (spot) {
            double hours = -Math.log(1 - random.nextDouble()) / platform.spotInterruptionsPerHour();
            schedule(now + hours * 3600, () -> interrupt(instance));
        }
    }

    /** A task on {@code instance}: provisioning until the instance can start it, then loading what it lacks. */
    private void place(Instance instance) {
        Task task = new Task(instance, TaskState.PROVISIONING);
        instance.task = task;
        tasks.add(task);
        schedule(Math.max(now, instance.readyAt), () -> {
            if (task.state == TaskState.PROVISIONING) {
                task.state = TaskState.LOADING;
                ColdStart.Capacity from = instance.loadAs;
                timeline.loading(now, from);
                schedule(now + coldStart.loadSeconds(from), () -> ready(task));
            }
        });
    }

    private void ready(Task task) {
        if (task.state == TaskState.LOADING) {
            task.instance.loadAs = ColdStart.Capacity.IDLE;
            task.state = TaskState.POLLING;
            timeline.polling(now);
            dispatch();
        }
    }

    /** Scale-in: stop a task that is not serving yet, else drain the least busy one (SIGTERM: it finishes its jobs). */
    private void stopOneTask() {
        Task victim = tasks.stream()
                .filter(t -> t.state == TaskState.PROVISIONING || t.state == TaskState.LOADING)
                .reduce((a, b) -> b)
                .orElseGet(() -> tasks.stream().filter(t -> t.state == TaskState.POLLING)
                        .min(Comparator.comparingInt(t -> t.running.size())).orElseThrow());
        drain(victim);
    }

    private void drain(Task task) {
        task.state = TaskState.DRAINING;
        if (task.running.isEmpty()) {
            stopped(task);
            release(task.instance);
        }
    }

    /** A stopped task leaves the service (the list stays small over week-long traces). */
    private void stopped(Task task) {
        task.state = TaskState.STOPPED;
        tasks.remove(task);
    }

    private void release(Instance instance) {
        instance.task = null;
        instance.idleSince = now;
        double idleSince = now;
        schedule(now + platform.idleInstanceSeconds(), () -> {
            if (instance.task == null && instance.idleSince == idleSince && Double.isNaN(instance.terminated)) {
                terminate(instance);
            }
        });
    }

    private void terminate(Instance instance) {
        if (!Double.isNaN(instance.terminated)) {
            return;
        }
        instance.terminated = now;
        openInstances.remove(instance);
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
        refillReadyAt = now + seconds;
        schedule(refillReadyAt, () -> {
            warmInstances++;
            refillReadyAt = Double.NaN;
            refillWarmPool();
        });
    }

    /** Spot interruption: 2-minute notice, ECS drains the task; unfinished jobs return to the queue at termination. */
    private void interrupt(Instance instance) {
        if (!Double.isNaN(instance.terminated)) {
            return;
        }
        interruptions++;
        instance.interrupted = true;
        Task task = instance.task;
        if (task != null && task.state != TaskState.STOPPED) {
            task.state = TaskState.DRAINING;
            if (task.running.isEmpty()) {
                stopped(task);
            }
        }
        schedule(now + platform.spotNoticeSeconds(), () -> {
            if (task != null && task.state == TaskState.DRAINING) {
                task.running.forEach(r -> queue.addFirst(r.index()));
                task.running.clear();
                stopped(task);
            }
            instance.task = null;
            terminate(instance);
            reconcile();
            dispatch();
        });
        reconcile();
    }

    // ------------------------------------------------------------------ workers

    private int window() {
        return policy == Policy.SEED_000 || policy == Policy.SEED_001 ? platform.seedWindow() : platform.ourWindow();
    }

    /** Polling workers take waiting jobs up to their window, the least busy first. */
    private void dispatch() {
        while (!queue.isEmpty()) {
            Task task = tasks.stream()
                    .filter(t -> t.state == TaskState.POLLING && t.running.size() < window())
                    .min(Comparator.comparingInt(t -> t.running.size())).orElse(null);
            if (task == null) {
                return;
            }
            int index = queue.poll();
            Job job = jobs.get(index);
            int concurrent = task.running.size() + 1;
            double seconds = platform.singleJobSeconds(tier, job.maxTokens()) * concurrent
                    / platform.batchSpeedup(concurrent);
            Running running = new Running(index, job, now + seconds);
            gpuRuns++;
            if (task.running.isEmpty()) {
                task.busySince = now;
            }
            task.running.add(running);
            schedule(running.end(), () -> finish(task, running));
        }
    }

    private void finish(Task task, Running running) {
        if (!task.running.remove(running)) {
            return;
        }
        resultAt[running.index()] = now;
        if (task.running.isEmpty()) {
            task.busySeconds += now - task.busySince;
            task.busySince = Double.NaN;
            if (task.state == TaskState.DRAINING) {
                stopped(task);
                release(task.instance);
            }
        }
        dispatch();
    }

    // ------------------------------------------------------------------ cost

    private double pricePerHour(Instance instance) {
        return instance.spot ? platform.spotPerHour(tier) : platform.onDemandPerHour(tier, !instance.ec2);
    }

    /** Instances so far, plus the warm pool's stopped volumes. */
    double cost() {
        double open = 0;
        for (Instance i : openInstances) {
            open += Math.max(0, now - i.launched) / 3600 * pricePerHour(i);
        }
        return closedCost + open + now * coldStart.warmPoolStoragePerSecond();
    }

    private double instanceSeconds() {
        double open = openInstances.stream().mapToDouble(i -> Math.max(0, now - i.launched)).sum();
        return closedInstanceSeconds + open;
    }
}
