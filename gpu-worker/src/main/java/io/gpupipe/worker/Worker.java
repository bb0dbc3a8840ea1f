package io.gpupipe.worker;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.seal.MessageOrigin;
import io.gpupipe.model.seal.MessageSeal;
import io.gpupipe.worker.consumption.AdaptiveWindow;
import io.gpupipe.worker.backend.InferenceBackend;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * One consumer of one tier queue with everything it needs: the window, the job threads, the heartbeat and the
 * adaptive sampler. Built from plain settings and ports, so the Quarkus app, tests and the benchmark share it.
 */
public final class Worker {
    private static final Logger LOG = Logger.getLogger(Worker.class);
    static final String TRACER_NAME = "io.gpupipe.worker";

    private final WorkerSettings settings;
    private final InferenceBackend backend;
    private final ConsumptionWindow window;
    private final QueueConsumer consumer;
    private final Heartbeat heartbeat;
    private final ScheduledExecutorService ticker;
    private final ExecutorService io;
    private final AtomicLong settled = new AtomicLong();
    private volatile boolean adaptive;

    /** A worker without the result cache whose job spans go nowhere (tests and benchmarks that look at neither). */
    public Worker(WorkerSettings settings, TierQueue queue, WorkerJobStore store, InferenceBackend backend,
                  JobEvents events, Clock clock) {
        this(settings, queue, store, backend, events, clock, ResultCacheWriter.NONE,
                OpenTelemetry.noop().getTracer(TRACER_NAME));
    }

    /**
     * A worker that writes result cache entries after its successes ({@link ResultCacheWriter}) and makes its job
     * spans with {@code tracer} (the app's: Quarkus OpenTelemetry's).
     */
    public Worker(WorkerSettings settings, TierQueue queue, WorkerJobStore store, InferenceBackend backend, JobEvents events,
                  Clock clock, ResultCacheWriter cache, Tracer tracer) {
        this(settings, queue, store, backend, events, clock, cache, tracer, message -> MessageOrigin.SEALED);
    }

    /**
     * The deployed worker: as above, a message sealed with {@code seals} ({@link MessageSeal}, the router's and the
     * batch function's) keeps the owner it names, any other is the queue owner's ({@link MessageOrigin}). The
     * constructors without seals take every message as sealed: for tests and benchmarks that alone write to their
     * queue.
     */
    public Worker(WorkerSettings settings, TierQueue queue, WorkerJobStore store, InferenceBackend backend,
                  JobEvents events, Clock clock, ResultCacheWriter cache, Tracer tracer, Optional<MessageSeal> seals) {
        this(settings, queue, store, backend, events, clock, cache, tracer,
                message -> MessageOrigin.of(seals, message.body(), message.seal()));
    }

    private Worker(WorkerSettings settings, TierQueue queue, WorkerJobStore store, InferenceBackend backend,
                   JobEvents events, Clock clock, ResultCacheWriter cache, Tracer tracer,
                   Function<QueueMessage, MessageOrigin> origins) {
        this.settings = settings;
        this.backend = backend;
        this.window = new ConsumptionWindow(settings.maxInFlight());
        this.io = Executors.newCachedThreadPool(threads("gpupipe-io"));
        JobEvents counted = event -> {
            settled.incrementAndGet();
            events.emit(event);
        };
        JobProcessor processor = new JobProcessor(settings, queue, store, backend, counted, clock, Math::random, io,
                cache, tracer, origins);
        ExecutorService jobs = Executors.newFixedThreadPool(settings.maxInFlight(), threads("gpupipe-job"));
        this.consumer = new QueueConsumer(queue, processor::process,
                new LastReceiveFailures(settings, store, backend, clock, origins), window, settings, jobs, clock);
        this.heartbeat = new Heartbeat(queue, consumer.inFlight(), settings.heartbeat(), consumer.visibilityLock(),
                clock);
        this.ticker = Executors.newScheduledThreadPool(1, threads("gpupipe-heartbeat"));
    }

    /** Starts the heartbeat, the adaptive sampler (when the server exports its queue) and the poller. */
    public void start() {
        long interval = settings.heartbeat().interval().toMillis();
        ticker.scheduleWithFixedDelay(heartbeat, interval, interval, TimeUnit.MILLISECONDS);
        if (settings.adaptive().isPresent() && backend.load().isPresent()) {
            adaptive = true;
            long every = settings.adaptiveInterval().toMillis();
            ticker.scheduleWithFixedDelay(new AdaptiveSampler(backend, new AdaptiveWindow(settings.adaptive().get()),
                    window), every, every, TimeUnit.MILLISECONDS);
        }
        consumer.start();
        LOG.infof("consuming tier %s: window %d for %d model-server slots, visibility %d s (heartbeat every %d ms), "
                        + "last attempt at receive %d, adaptive window %s", settings.tier().wireName(),
                settings.maxInFlight(), settings.windowSizing().serverSlots(), settings.visibilityTimeout().toSeconds(),
                interval, settings.attempts().maxReceiveCount(), adaptive ? "on" : "off");
    }

    /** Stops receiving, lets running jobs finish within {@code grace}, releases the rest; then stops the threads. */
    public DrainReport drain(Duration grace) {
        try {
            DrainReport report = consumer.drain(grace);
            LOG.infof("drained tier %s in %d ms: %d job(s) finished, %d message(s) released to the queue",
                    settings.tier().wireName(), report.tookMs(), report.finished(), report.released());
            return report;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new DrainReport(0, 0, 0);
        } finally {
            ticker.shutdownNow();
            io.shutdown();
        }
    }

    public WorkerSettings settings() {
        return settings;
    }

    public int windowLimit() {
        return window.limit();
    }

    public int inFlight() {
        return consumer.inFlight().size();
    }

    /** Deliveries settled so far (one job event each: a result, a release, a duplicate, ...). */
    public long jobsSettled() {
        return settled.get();
    }

    public boolean isAdaptive() {
        return adaptive;
    }

    /** False when the poller died unexpectedly (liveness then reports DOWN). */
    public boolean isHealthy() {
        return consumer.pollerFailure() == null;
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
