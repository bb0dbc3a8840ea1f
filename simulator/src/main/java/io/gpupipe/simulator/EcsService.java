package io.gpupipe.simulator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * The tier's ECS service: its desired count, the scheduler that starts and stops tasks to match it (provisioning →
 * model load → polling → draining; the stages' lengths are {@link ColdStart}'s), Spot interruptions, and the task
 * counts and GPU utilisation CloudWatch reports.
 */
final class EcsService {
    private final EventClock clock;
    private final Platform platform;
    private final Policy policy;
    private final ColdStart coldStart;
    private final InstanceFleet fleet;
    private final ColdStartTimeline.Builder timeline;
    private final SplittableRandom random;
    /** Hands an interrupted task's unfinished job back to the queue, by its index. */
    private final IntConsumer requeue;
    /** Runs when a task may take waiting jobs. */
    private final Runnable serve;
    private final List<Task> tasks = new ArrayList<>();
    private int desired;
    private int interruptions;

    EcsService(EventClock clock, Platform platform, Policy policy, ColdStart coldStart, InstanceFleet fleet,
               ColdStartTimeline.Builder timeline, long seed, IntConsumer requeue, Runnable serve) {
        this.clock = clock;
        this.platform = platform;
        this.policy = policy;
        this.coldStart = coldStart;
        this.fleet = fleet;
        this.timeline = timeline;
        this.random = new SplittableRandom(seed);
        this.requeue = requeue;
        this.serve = serve;
    }

    int desired() {
        return desired;
    }

    int interruptions() {
        return interruptions;
    }

    /** The trace starts inside a warm window: {@code count} tasks already serve. */
    void prewarm(int count) {
        desired = count;
        for (int i = 0; i < count; i++) {
            Instance instance = fleet.prewarmed();
            Task task = new Task(instance, Task.State.POLLING);
            instance.occupied = true;
            tasks.add(task);
        }
    }

    /** Sets the desired count; {@code woken}: the router's wake set the Auto Scaling group's capacity too. */
    void setDesired(int count, boolean woken) {
        desired = count;
        reconcile(woken);
    }

    // ------------------------------------------------------------------ what CloudWatch sees

    int inFlight() {
        return tasks.stream().mapToInt(t -> t.running.size()).sum();
    }

    /** ECS runningCount: tasks whose containers run (loading, polling or draining). */
    int runningTasks() {
        return (int) tasks.stream().filter(t -> t.state == Task.State.LOADING || t.state == Task.State.POLLING
                || t.state == Task.State.DRAINING).count();
    }

    int pollingTasks() {
        return (int) tasks.stream().filter(t -> t.state == Task.State.POLLING).count();
    }

    int activeTasks() {
        return (int) tasks.stream().filter(Task::active).count();
    }

    /** Container Insights TaskGPUUtilization: share of the last period the service's polling tasks were busy. */
    double gpuUtilizationPercent(double period) {
        double now = clock.now();
        List<Task> serving = tasks.stream().filter(t -> t.state == Task.State.POLLING).toList();
        double busy = 0;
        for (Task task : serving) {
            busy += task.readBusySeconds(now, period);
        }
        return serving.isEmpty() ? Double.NaN : 100 * busy / (period * serving.size());
    }

    /** The polling task with the fewest jobs, if it has fewer than {@code window}; else null. */
    Task leastBusyPolling(int window) {
        return tasks.stream()
                .filter(t -> t.state == Task.State.POLLING && t.running.size() < window)
                .min(Comparator.comparingInt(t -> t.running.size())).orElse(null);
    }

    /** A task's job finished: a draining task without jobs left stops and frees its instance. */
    void finished(Task task) {
        if (task.running.isEmpty() && task.state == Task.State.DRAINING) {
            stopped(task);
            fleet.release(task.instance);
        }
    }

    // ------------------------------------------------------------------ the scheduler

    /** Start or stop tasks until the active count matches the desired count. */
    private void reconcile(boolean woken) {
        while (activeTasks() < desired) {
            startTask(woken);
        }
        while (activeTasks() > desired) {
            stopOneTask();
        }
    }

    private void startTask(boolean woken) {
        boolean spot = policy == Policy.OURS_SPOT && tasks.stream().anyMatch(t -> t.active() && !t.instance.spot);
        Instance idle = fleet.idle(spot);
        if (idle != null) {
            place(idle);
            return;
        }
        Instance instance = fleet.launch(spot, woken);
        place(instance);
        if (spot) {
            double hours = -Math.log(1 - random.nextDouble()) / platform.spotInterruptionsPerHour();
            clock.schedule(clock.now() + hours * 3600, () -> interrupt(instance));
        }
    }

    /** A task on {@code instance}: provisioning until the instance can start it, then loading what it lacks. */
    private void place(Instance instance) {
        Task task = new Task(instance, Task.State.PROVISIONING);
        instance.occupied = true;
        tasks.add(task);
        clock.schedule(Math.max(clock.now(), instance.readyAt), () -> {
            if (task.state == Task.State.PROVISIONING) {
                task.state = Task.State.LOADING;
                ColdStart.Capacity from = instance.loadAs;
                timeline.loading(clock.now(), from);
                clock.schedule(clock.now() + coldStart.loadSeconds(from), () -> ready(task));
            }
        });
    }

    private void ready(Task task) {
        if (task.state == Task.State.LOADING) {
            task.instance.loadAs = ColdStart.Capacity.IDLE;
            task.state = Task.State.POLLING;
            timeline.polling(clock.now());
            serve.run();
        }
    }

    /** Scale-in: stop a task that is not serving yet, else drain the least busy one (SIGTERM: it finishes its jobs). */
    private void stopOneTask() {
        Task victim = tasks.stream()
                .filter(t -> t.state == Task.State.PROVISIONING || t.state == Task.State.LOADING)
                .reduce((a, b) -> b)
                .orElseGet(() -> tasks.stream().filter(t -> t.state == Task.State.POLLING)
                        .min(Comparator.comparingInt(t -> t.running.size())).orElseThrow());
        victim.state = Task.State.DRAINING;
        if (victim.running.isEmpty()) {
            stopped(victim);
            fleet.release(victim.instance);
        }
    }

    /** A stopped task leaves the service (the list stays small over week-long traces). */
    private void stopped(Task task) {
        task.state = Task.State.STOPPED;
        tasks.remove(task);
    }

    /** Spot interruption: 2-minute notice, ECS drains the task; unfinished jobs return to the queue at termination. */
    private void interrupt(Instance instance) {
        if (!instance.open()) {
            return;
        }
        interruptions++;
        instance.interrupted = true;
        Task task = tasks.stream().filter(t -> t.instance == instance).findFirst().orElse(null);
        if (task != null && task.state != Task.State.STOPPED) {
            task.state = Task.State.DRAINING;
            if (task.running.isEmpty()) {
                stopped(task);
            }
        }
        clock.schedule(clock.now() + platform.spotNoticeSeconds(), () -> {
            if (task != null && task.state == Task.State.DRAINING) {
                task.running.forEach(r -> requeue.accept(r.index()));
                task.running.clear();
                stopped(task);
            }
            instance.occupied = false;
            fleet.terminate(instance);
            reconcile(false);
            serve.run();
        });
        reconcile(false);
    }
}
