package io.gpupipe.localstack.chaos;

import io.gpupipe.localstack.LocalStack;
import io.gpupipe.localstack.internal.WorkerProcess;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.worker.standin.VllmStandIn;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The fault scripts, one per {@link Scenario}: each runs for about one scenario window on its own thread, then
 * leaves everything healthy again. Worker faults act on the processes (SIGKILL / SIGTERM, then the stack's
 * supervisor replaces them); network faults switch {@link FaultProxy} modes; HTTP 500 bursts come from the stand-in.
 */
public final class Faults {
    /** The proxies by role; components reach SQS, S3 and the model server only through them. */
    public record Proxies(FaultProxy routerSqs, FaultProxy routerS3, FaultProxy workerSqs, FaultProxy workerS3,
                          FaultProxy model, FaultProxy webhook) {
    }

    /** The tier queues' visibility timeouts in the soak: short, so that a lapse is quick to provoke. */
    public static final int SMALL_VISIBILITY_SECONDS = 8;
    public static final int LARGE_VISIBILITY_SECONDS = 12;

    /** Those timeouts by tier of the bundled catalogue: the default text tier's, and the longer one for the rest. */
    public static java.util.Map<io.gpupipe.model.Tier, Integer> visibilityTimeouts() {
        io.gpupipe.model.TierCatalogue tiers = io.gpupipe.model.TierCatalogue.bundled();
        java.util.Map<io.gpupipe.model.Tier, Integer> seconds = new java.util.LinkedHashMap<>();
        tiers.names().forEach(t -> seconds.put(t, LARGE_VISIBILITY_SECONDS));
        seconds.put(tiers.defaultTier(io.gpupipe.model.Task.GENERATE), SMALL_VISIBILITY_SECONDS);
        return seconds;
    }
    /** How many of a scenario's first jobs are slow (visibility-lapse and all-together). */
    public static final int SLOW_JOBS = 8;
    /** When the workers' SQS is cut in the visibility-lapse scenario (the slow jobs are running by then). */
    static final Duration LAPSE_START = Duration.ofSeconds(5);
    /** How long the workers' SQS stays cut: longer than either tier's visibility timeout. */
    static final Duration LAPSE = Duration.ofSeconds(Math.max(SMALL_VISIBILITY_SECONDS, LARGE_VISIBILITY_SECONDS) + 3);
    /** How long a slow job's model call takes: it outlives the cut, so the job is still running when SQS is back. */
    static final Duration SLOW_JOB = Duration.ofSeconds(25);

    private final LocalStack stack;
    private final Proxies proxies;
    private final VllmStandIn model;
    private final SoakSettings settings;
    private final Consumer<String> log;

    public Faults(LocalStack stack, Proxies proxies, VllmStandIn model, SoakSettings settings,
                  Consumer<String> log) {
        this.stack = stack;
        this.proxies = proxies;
        this.model = model;
        this.settings = settings;
        this.log = log;
        model.slow(SoakJobs.OUTLASTS_VISIBILITY, SLOW_JOB);
    }

    /** Runs the scenario's faults within {@code window} and returns once everything is healthy again. */
    public void inject(Scenario scenario, Duration window) {
        List<Runnable> scripts = switch (scenario) {
            case BASELINE, DUPLICATES, POISON -> List.of();
            case VISIBILITY_LAPSE -> List.of(this::visibilityLapse);
            case WORKER_SIGKILL -> List.of(() -> killWorkers(window));
            case WORKER_SIGTERM -> List.of(() -> rollingRestart(window));
            case MODEL_500 -> List.of(() -> modelErrors(window));
            case MODEL_HANG -> List.of(() -> outage(window, FaultProxy.Mode.HANG, proxies.model()));
            case MODEL_REFUSED -> List.of(() -> outage(window, FaultProxy.Mode.REFUSE, proxies.model()));
            case S3_OUTAGE -> List.of(() -> outage(window, FaultProxy.Mode.REFUSE, proxies.routerS3(),
                    proxies.workerS3()));
            case SQS_OUTAGE -> List.of(() -> outage(window, FaultProxy.Mode.REFUSE, proxies.routerSqs(),
                    proxies.workerSqs()));
            case ROUTER_ENQUEUE -> List.of(() -> enqueueFailures(window));
            case WEBHOOK_DOWN -> List.of(() -> webhookDown(window));
            case ALL -> List.of(() -> killWorkers(window), () -> modelErrors(window),
                    () -> outage(window, FaultProxy.Mode.HANG, proxies.model()),
                    () -> outage(window, FaultProxy.Mode.REFUSE, proxies.routerS3(), proxies.workerS3()),
                    () -> {
                        pause(window.dividedBy(2));
                        outage(window.dividedBy(2), FaultProxy.Mode.REFUSE, proxies.routerSqs(),
                                proxies.workerSqs());
                    }, () -> webhookDown(window));
        };
        // one thread each: the common pool has a single thread on two cores, which would run them in turn
        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            CompletableFuture.allOf(scripts.stream().map(s -> CompletableFuture.runAsync(s, threads))
                    .toArray(CompletableFuture[]::new)).join();
        } finally {
            threads.shutdown();
        }
    }

    private void killWorkers(Duration window) {
        Tier[] victims = {Tier.of("small"), Tier.of("large"), Tier.of("small")};
        for (Tier tier : victims) {
            pause(window.dividedBy(victims.length + 1));
            WorkerProcess worker = stack.workers().get(tier);
            log.accept("SIGKILL " + WorkerProcess.name(tier) + " (pid " + worker.process().pid() + ")");
            ProcessHandle.of(worker.process().pid()).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private void rollingRestart(Duration window) {
        for (Tier tier : TierCatalogue.bundled().names()) {
            pause(window.dividedBy(TierCatalogue.bundled().names().size() + 1));
            WorkerProcess worker = stack.workers().get(tier);
            log.accept("SIGTERM " + WorkerProcess.name(tier) + " (pid " + worker.process().pid() + "): drain");
            ProcessHandle.of(worker.process().pid()).ifPresent(ProcessHandle::destroy);
        }
    }

    private void modelErrors(Duration window) {
        for (int burst = 0; burst < 3; burst++) {
            pause(window.dividedBy(4));
            log.accept("model server: the next 10 completions answer HTTP 500");
            model.failNext(10, SoakJobs.PROMPT_PREFIX);
        }
    }

    private void outage(Duration window, FaultProxy.Mode mode, FaultProxy... targets) {
        pause(window.dividedBy(6));
        Duration length = settings.scaled(Duration.ofSeconds(30));
        for (FaultProxy proxy : targets) {
            log.accept(proxy.name() + ": " + mode + " for " + length.toMillis() + " ms");
            proxy.mode(mode);
        }
        pause(length);
        for (FaultProxy proxy : targets) {
            proxy.mode(FaultProxy.Mode.PASS);
        }
        log.accept(String.join(", ", Arrays.stream(targets).map(FaultProxy::name).toList()) + ": back");
    }

    private void enqueueFailures(Duration window) {
        for (int burst = 0; burst < 3; burst++) {
            pause(window.dividedBy(4));
            Duration length = settings.scaled(Duration.ofSeconds(5));
            log.accept(proxies.routerSqs().name() + ": REFUSE for " + length.toMillis() + " ms (S3 still up)");
            proxies.routerSqs().mode(FaultProxy.Mode.REFUSE);
            pause(length);
            proxies.routerSqs().mode(FaultProxy.Mode.PASS);
        }
    }

    /**
     * Jobs marked {@link SoakJobs#OUTLASTS_VISIBILITY} take {@link #SLOW_JOB}; meanwhile the workers' SQS is cut for
     * longer than either tier's visibility timeout, so their heartbeats cannot extend it and, once SQS is back, the
     * queue hands the still-running jobs out again. Not scaled: the lengths are relative to the visibility timeouts.
     */
    private void visibilityLapse() {
        pause(LAPSE_START);
        log.accept(proxies.workerSqs().name() + ": REFUSE for " + LAPSE.toMillis() + " ms (longer than the "
                + "visibility timeouts, shorter than the slow jobs)");
        proxies.workerSqs().mode(FaultProxy.Mode.REFUSE);
        pause(LAPSE);
        proxies.workerSqs().mode(FaultProxy.Mode.PASS);
        log.accept(proxies.workerSqs().name() + ": back");
        pause(SLOW_JOB.minus(LAPSE_START).minus(LAPSE));
    }

    private void webhookDown(Duration window) {
        pause(window.dividedBy(8));
        Duration length = settings.scaled(Duration.ofSeconds(60));
        log.accept("webhook receiver down (connection refused) for " + length.toMillis() + " ms");
        proxies.webhook().mode(FaultProxy.Mode.REFUSE);
        pause(length);
        proxies.webhook().mode(FaultProxy.Mode.PASS);
        log.accept("webhook receiver back");
    }

    private static void pause(Duration duration) {
        SoakClient.sleep(duration.toMillis());
    }
}
