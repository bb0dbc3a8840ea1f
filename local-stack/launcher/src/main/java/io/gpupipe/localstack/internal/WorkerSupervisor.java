package io.gpupipe.localstack.internal;

import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.model.Tier;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Keeps one tier's worker running, as an ECS service keeps its desired count: a worker process that exits while the
 * stack is not stopping it is replaced by a new one, after a delay that doubles while replacements keep dying young
 * (ECS's service throttle logic does the same for tasks that fail repeatedly) and resets once one has lived
 * {@link RestartPolicy#stableAfter()}. The console says when a worker died, when it is restarted, and when the new one
 * is ready.
 */
public final class WorkerSupervisor {
    private final Tier tier;
    private final Supplier<WorkerProcess> launcher;
    private final RestartPolicy policy;
    private final Console console;
    private final ScheduledExecutorService scheduler;
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile WorkerProcess current;
    private volatile long currentStartedNanos;
    private volatile boolean stopping;
    private Duration nextDelay;

    /** Restart delays: the first after {@code initialDelay}, doubling up to {@code maxDelay} while they die young. */
    public record RestartPolicy(Duration initialDelay, Duration maxDelay, Duration stableAfter,
                                Duration readyLimit) {
        public static RestartPolicy defaults() {
            return new RestartPolicy(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(60),
                    Duration.ofMinutes(5));
        }
    }

    private WorkerSupervisor(Tier tier, Supplier<WorkerProcess> launcher, RestartPolicy policy, Console console) {
        this.tier = tier;
        this.launcher = launcher;
        this.policy = policy;
        this.console = console;
        this.nextDelay = policy.initialDelay();
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, WorkerProcess.name(tier) + "-supervisor");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the first worker (through {@code launcher}) and watches it. */
    public static WorkerSupervisor start(Tier tier, Supplier<WorkerProcess> launcher, RestartPolicy policy,
                                         Console console) {
        WorkerSupervisor supervisor = new WorkerSupervisor(tier, launcher, policy, console);
        supervisor.launch();
        return supervisor;
    }

    private synchronized void launch() {
        WorkerProcess worker = launcher.get();
        current = worker;
        currentStartedNanos = System.nanoTime();
        worker.process().onExit().thenAccept(code -> exited(worker, code));
    }

    private synchronized void exited(WorkerProcess worker, int code) {
        if (stopping || worker.process().isStopping() || worker != current) {
            return;
        }
        Duration lived = Duration.ofNanos(System.nanoTime() - currentStartedNanos);
        if (lived.compareTo(policy.stableAfter()) >= 0) {
            nextDelay = policy.initialDelay();
        }
        Duration delay = nextDelay;
        nextDelay = min(nextDelay.multipliedBy(2), policy.maxDelay());
        int restart = restarts.incrementAndGet();
        console.info(WorkerProcess.name(tier) + " (pid " + worker.process().pid() + ") exited with code " + code
                + " after " + lived.toSeconds() + " s; restarting it in " + delay.toMillis() + " ms (restart "
                + restart + ")");
        scheduler.schedule(this::restart, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void restart() {
        synchronized (this) {
            if (stopping) {
                return;
            }
            try {
                launch();
            } catch (StartupException e) {
                console.info(WorkerProcess.name(tier) + " could not be restarted: " + e.getMessage());
                return;
            }
            console.info(WorkerProcess.name(tier) + " restarted (pid " + current.process().pid() + ")");
        }
        WorkerProcess worker = current;
        try {
            worker.awaitReady(policy.readyLimit(), policy.readyLimit(), console);
            console.info(WorkerProcess.name(tier) + " (pid " + worker.process().pid() + ") is ready again");
        } catch (StartupException e) {
            // it died or hung while starting: exited() restarts it, or the stack is stopping
            console.info(WorkerProcess.name(tier) + " restart did not become ready: " + e.getMessage());
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    public Tier tier() {
        return tier;
    }

    /** The worker process running now (a new one after each restart). */
    public WorkerProcess current() {
        return current;
    }

    /** How many times a worker was replaced after dying. */
    public int restarts() {
        return restarts.get();
    }

    /** Stops supervising and drains the current worker (SIGTERM, then SIGKILL after {@code grace}). */
    public boolean stop(Duration grace) {
        WorkerProcess worker;
        synchronized (this) {
            stopping = true;
            worker = current;
        }
        scheduler.shutdownNow();
        return worker.stop(grace);
    }
}
