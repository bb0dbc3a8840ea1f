package io.gpupipe.worker;

import io.gpupipe.adapters.CacheStore;
import io.gpupipe.adapters.QueueAttributes;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.Task;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.embedding.EmbeddingFields;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.model.retry.RetryPolicy;
import io.gpupipe.model.seal.MessageSeal;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.backend.ModelException;
import io.opentelemetry.api.trace.Tracer;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Starts the worker after start-up (task identity, queue attributes, backend warm-up; readiness turns UP) and
 * drains it on shutdown: Quarkus fires {@link ShutdownEvent} on SIGTERM before closing the SQS/S3 clients, and this
 * observer returns only when every message is finished or released (at most the drain grace plus a few seconds).
 */
@ApplicationScoped
public class WorkerLifecycle {
    private static final Logger LOG = Logger.getLogger(WorkerLifecycle.class);

    private final WorkerConfig config;
    private final TierQueue queue;
    private final WorkerJobStore store;
    private final InferenceBackend backend;
    private final WorkerState state;
    private final JobEvents events;
    private final CacheStore cache;
    private final Tracer tracer;
    private final Optional<MessageSeal> seals;
    private volatile Worker worker;
    private volatile Thread starter;

    WorkerLifecycle(WorkerConfig config, TierQueue queue, WorkerJobStore store, InferenceBackend backend, WorkerState state,
                    JobEvents events, CacheStore cache, Tracer tracer, Optional<MessageSeal> seals) {
        this.tracer = tracer;
        this.seals = seals;
        this.config = config;
        this.cache = cache;
        this.events = events;
        this.queue = queue;
        this.store = store;
        this.backend = backend;
        this.state = state;
    }

    void onStart(@Observes StartupEvent event) {
        starter = new Thread(this::startUp, "gpupipe-startup");
        starter.setDaemon(true);
        starter.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        state.moveTo(WorkerState.Phase.DRAINING, "shutting down");
        Thread pending = starter;
        if (pending != null) {
            pending.interrupt();
        }
        Worker running;
        synchronized (this) {
            running = worker;
        }
        if (running != null) {
            running.drain(config.drainGrace());
        }
        state.moveTo(WorkerState.Phase.STOPPED, "stopped");
    }

    public Optional<Worker> worker() {
        return Optional.ofNullable(worker);
    }

    private void startUp() {
        try {
            String taskArn = TaskIdentity.resolve(config.taskArn(), System.getenv());
            QueueAttributes attributes = untilDone("read the attributes of " + config.queueUrl(), queue::attributes);
            WorkerSettings settings = WorkerSettings.resolve(config, attributes, taskArn);
            if (attributes.deadLetterQueueUrl().isEmpty()) {
                throw new IllegalStateException("no dead-letter queue for malformed messages: set "
                        + "gpupipe.worker.dlq-url or give " + config.queueUrl() + " a redrive policy");
            }
            state.moveTo(WorkerState.Phase.WARMING_UP, "waiting for the model");
            untilDone("warm up the model", () -> warmUp(settings));
            Worker started = new Worker(settings, queue, store, backend, events, Clock.systemUTC(),
                    new ResultCacheWriter(cache, TierCatalogue.bundled().get(settings.tier()), Clock.systemUTC()),
                    tracer, seals);
            synchronized (this) {
                if (state.isShuttingDown()) {
                    return;
                }
                started.start();
                worker = started;
            }
            state.moveTo(WorkerState.Phase.READY, "consuming " + config.queueUrl());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.errorf("the worker cannot start: %s", e.getMessage());
            state.moveTo(WorkerState.Phase.FAILED, e.getMessage());
            Quarkus.asyncExit(1);
        }
    }

    private Boolean warmUp(WorkerSettings settings) {
        backend.ensureReady();
        Task task = backend.supports(config.warmUp().task()) ? config.warmUp().task() : Task.SPEECH;
        String id = UUID.randomUUID().toString();
        long start = System.nanoTime();
        switch (task) {
            case SPEECH -> backend.speak(new InferenceJob(id, task, "Ready.", 1, 0.0, 1.0, null, null, null, null,
                    null, null), settings.modelTimeout());
            case EMBED -> backend.embed(InferenceJob.embedding(id, new EmbeddingFields(List.of("Hello"), null, null),
                    null, null, null, null, null, null), settings.modelTimeout());
            case GENERATE -> backend.generate(new InferenceJob(id, task, "Hello", 1, 0.0, 1.0, null, null, null, null,
                    null, null), settings.modelTimeout());
        }
        LOG.infof("warm-up %s inference took %d ms", task.wireName(), (System.nanoTime() - start) / 1_000_000);
        return Boolean.TRUE;
    }

    private <T> T untilDone(String what, Supplier<T> step) throws InterruptedException {
        Duration interval = config.warmUp().retryInterval();
        Retry retry = RetryPolicy.exponential(RetryPolicy.UNLIMITED, interval, interval).start();
        String lastProblem = null;
        while (true) {
            try {
                return step.get();
            } catch (RuntimeException e) {
                boolean permanent = e instanceof ModelException model && !model.failure().retryable();
                if (permanent || e instanceof IllegalStateException || e instanceof IllegalArgumentException) {
                    throw e;
                }
                String problem = e.getClass().getSimpleName() + ": " + e.getMessage();
                if (!problem.equals(lastProblem)) {
                    LOG.warnf("cannot %s yet (%s); retrying every %d ms", what, problem, interval.toMillis());
                    lastProblem = problem;
                }
                state.moveTo(state.phase(), "cannot " + what + " yet: " + problem);
                if (!retry.another()) {
                    throw new InterruptedException("interrupted while waiting to " + what);
                }
            }
        }
    }
}
