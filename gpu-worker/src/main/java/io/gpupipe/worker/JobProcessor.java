package io.gpupipe.worker;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.embedding.EmbeddingOutputs;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobMessage;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.QueuedJob;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.worker.consumption.FailureDecision;
import io.gpupipe.worker.consumption.ModelFailure;
import io.gpupipe.worker.consumption.QueueWait;
import io.gpupipe.model.observability.LogFields;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.telemetry.Traces;
import io.gpupipe.worker.InferenceRunner.Inference;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.backend.ModelIdentity;
import io.gpupipe.worker.backend.SpeechAudio;
import io.gpupipe.worker.backend.Wav;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * The per-message rules: validate; skip jobs already done, cancelled or expired without touching the model; mark
 * running (conditionally, so a cancel that lands after the read wins); infer; write the result create-only (WAV
 * first, then the JSON naming it); decide what failures mean. The two look-ups before inference run in parallel, so
 * bookkeeping adds two S3 round trips before inference instead of three. The running write is not overlapped with
 * inference any more: a cancel it loses to must stop the job before the model is called.
 */
final class JobProcessor {
    private static final Logger LOG = Logger.getLogger(JobProcessor.class);
    static final String JOB_SPAN = "worker job";
    static final String QUEUE_WAIT_SPAN = "queue wait";
    static final String MARKER_SPAN = "marker claim";
    static final String RESULT_WRITE_SPAN = "result write";
    private final WorkerSettings settings;
    private final WorkerJobStore store;
    private final InferenceBackend backend;
    private final InferenceRunner runner;
    private final MalformedMessages malformed;
    private final RequestGuard guard = new RequestGuard();
    private final JobEvents events;
    private final Clock clock;
    private final DoubleSupplier random;
    private final Executor io;
    private final ResultCacheWriter cache;
    private final Tracer tracer;

    JobProcessor(WorkerSettings settings, TierQueue queue, WorkerJobStore store, InferenceBackend backend, JobEvents events,
                 Clock clock, DoubleSupplier random, Executor io, ResultCacheWriter cache, Tracer tracer) {
        this.io = io;
        this.cache = cache;
        this.tracer = tracer;
        this.settings = settings;
        this.store = store;
        this.backend = backend;
        this.runner = new InferenceRunner(backend, settings.modelTimeout(), settings.maxCalls(),
                settings.callBackoff(), clock, random, tracer);
        this.malformed = new MalformedMessages(settings.tier(), settings.taskArn(), queue, store, clock);
        this.events = events;
        this.clock = clock;
        this.random = random;
    }

    /**
     * Every log line while the message is processed carries the tier, the job's trace and, once read, its requestId
     * (MDC). The delivery is one span ("worker job", kind CONSUMER) whose parent is the message's traceparent (the
     * router's submit span), or the root of a new trace for a message sent straight to the queue without one.
     */
    Disposition process(InFlightMessage inFlight) {
        QueueMessage message = inFlight.message();
        Span span = tracer.spanBuilder(JOB_SPAN).setSpanKind(SpanKind.CONSUMER)
                .setParent(Traces.parent(TraceContext.fromTraceparent(message.traceparent())))
                .setAttribute(SpanAttributes.TIER, settings.tier().wireName())
                .setAttribute(SpanAttributes.RECEIVE_COUNT, (long) message.receiveCount()).startSpan();
        MDC.put(LogFields.TIER, settings.tier().wireName());
        Traces.of(span).ifPresent(trace -> MDC.put(LogFields.TRACE_ID, trace.traceId()));
        try {
            return Traces.within(span, () -> processMessage(inFlight));
        } finally {
            MDC.remove(LogFields.REQUEST_ID);
            MDC.remove(LogFields.TIER);
            MDC.remove(LogFields.TRACE_ID);
        }
    }

    /** {@code step} as a child span of the job's; its outcome attribute is what {@code outcome} makes of the result. */
    private <T> T inSpan(String name, Supplier<T> step, Function<T, String> outcome) {
        Span span = tracer.spanBuilder(name).startSpan();
        return Traces.within(span, () -> {
            T result = step.get();
            span.setAttribute(SpanAttributes.OUTCOME, outcome.apply(result));
            return result;
        });
    }

    /** The time the job spent queued, as a span from its submission to now (the job span's start). */
    private void queueWaitSpan(Instant submittedAt, Instant started) {
        if (submittedAt != null && !submittedAt.isAfter(started)) {
            tracer.spanBuilder(QUEUE_WAIT_SPAN).setStartTimestamp(submittedAt).startSpan().end(started);
        }
    }

    /**
     * {@code task} run on another thread with this thread's job log context: a pool thread keeps (and its children
     * inherit) whatever MDC it last had, which would name another job (JobLogContextTest reproduced it).
     */
    private static <T> Supplier<T> inLogContext(Supplier<T> task) {
        Object requestId = MDC.get(LogFields.REQUEST_ID);
        Object tier = MDC.get(LogFields.TIER);
        Object traceId = MDC.get(LogFields.TRACE_ID);
        Context trace = Context.current();
        return () -> {
            if (requestId != null && tier != null) {
                MDC.put(LogFields.REQUEST_ID, requestId);
                MDC.put(LogFields.TIER, tier);
            }
            if (traceId != null) {
                MDC.put(LogFields.TRACE_ID, traceId);
            }
            try (Scope ignored = trace.makeCurrent()) {
                return task.get();
            } finally {
                MDC.remove(LogFields.REQUEST_ID);
                MDC.remove(LogFields.TIER);
                MDC.remove(LogFields.TRACE_ID);
            }
        };
    }

    private Disposition processMessage(InFlightMessage inFlight) {
        QueueMessage message = inFlight.message();
        Instant started = clock.instant();
        // a message whose task this tier does not serve is refused like any invalid one, before the model is called
        QueuedJob read = QueuedJob.read(message.body(), this::payload, settings.tiers(), settings.tier());
        if (read instanceof QueuedJob.Malformed bad) {
            queueWaitSpan(message.sentAt(), started);
            JobContext context = new JobContext(inFlight, started, QueueWait.millis(message.sentAt(), started));
            events.emit(malformed.reject(context, bad));
            return Disposition.delete();
        }
        InferenceJob job = ((QueuedJob.Valid) read).job();
        MDC.put(LogFields.REQUEST_ID, job.requestId());
        Span.current().setAttribute(SpanAttributes.REQUEST_ID, job.requestId());
        Instant submittedAt = QueueWait.submittedAt(job.submittedAt(), message.sentAt());
        queueWaitSpan(submittedAt, started);
        InferenceJob timed = job.submittedAt() == null && submittedAt != null ? job.withSubmittedAt(submittedAt) : job;
        JobContext context = new JobContext(inFlight, started, QueueWait.millis(submittedAt, started));
        inFlight.carries(timed);
        // a duplicate comes back once the original has surely ended (it cannot outlive the model timeout), so it
        // spends one more receive, not all of them, while the original runs
        return guard.exclusively(job.requestId(), inFlight, settings.attempts().isLastAttempt(context.attempts()),
                settings.modelTimeout(), () -> processValid(context, timed));
    }

    /** The claim-check payload stored at {@code key} ({@link JobMessage}); a missing one fails the message. */
    private Optional<String> payload(String key) {
        Optional<String> payload = store.readPayload(key);
        if (payload.isEmpty()) {
            LOG.warnf("claim-check payload %s is missing; rejecting the message", key);
        }
        return payload;
    }

    private Disposition processValid(JobContext context, InferenceJob job) {
        ModelIdentity model = backend.identity(job.task());
        CompletableFuture<MarkerSnapshot> markerRead = CompletableFuture.supplyAsync(
                inLogContext(() -> store.markerSnapshot(job.requestId())), io);
        boolean resultExists = store.resultExists(job.requestId());
        MarkerSnapshot marker = join(markerRead);
        if (resultExists) {
            emit(context, job, JobOutcome.DUPLICATE, null, model, JobContext.Usage.NONE);
            return Disposition.delete();
        }
        if (isCancelled(marker)) {
            return cancelled(context, job, model);
        }
        if (job.isExpiredAt(context.startedAt())) {
            String why = "the job expired before a worker could start it: ttlSeconds " + job.ttlSeconds()
                    + " from " + job.submittedAt() + " had passed at " + context.startedAt();
            boolean written = writeFailed(context, job, new ModelFailure(ErrorCodes.EXPIRED, why, false), model);
            emit(context, job, written ? JobOutcome.EXPIRED : JobOutcome.DUPLICATE, ErrorCodes.EXPIRED, model,
                    JobContext.Usage.NONE);
            return Disposition.delete();
        }
        Claim claim = inSpan(MARKER_SPAN, () -> markRunning(context, job, marker),
                c -> c.name().toLowerCase(Locale.ROOT));
        if (claim == Claim.CANCELLED) {
            return cancelled(context, job, model);
        }
        if (claim == Claim.CONTENDED) {
            emit(context, job, JobOutcome.REQUEUED, null, model, JobContext.Usage.NONE);
            return Disposition.release(requeueDelay(context), ErrorCodes.WORKER_ERROR,
                    "could not mark the job running: its marker kept changing under other writers");
        }
        Inference inference = runner.run(job, context.inFlight());
        if (inference instanceof Inference.Done done && !context.inFlight().isAbandoned()) {
            return succeed(context, job, done, model);
        }
        if (inference instanceof Inference.Failed failed) {
            return fail(context, job, failed, model);
        }
        emit(context, job, JobOutcome.RELEASED, null, model, JobContext.Usage.NONE);
        return Disposition.release(Duration.ZERO, ErrorCodes.WORKER_STOPPED, "the worker shut down while the job ran");
    }

    private Duration requeueDelay(JobContext context) {
        return settings.requeueBackoff().delay(Math.max(1, context.attempts()), random);
    }

    private enum Claim {
        RUNNING,
        CANCELLED,
        CONTENDED
    }

    /**
     * Writes the {@code running} marker over exactly the version read, so that it can never overwrite a cancel that
     * landed after the read. When another writer got there first, re-reads: {@code cancelled} means the client won;
     * {@code running} (another delivery of this job, or our own write that the SDK retried) can no longer be
     * cancelled, so the job goes on; anything else is retried over the new version. Inference starts only after
     * this, since a model call cannot be taken back. An S3 error propagates and the message returns to the queue.
     */
    private Claim markRunning(JobContext context, InferenceJob job, MarkerSnapshot read) {
        MarkerSnapshot expected = read;
        Retry retry = settings.retries().markerChanges().start();
        do {
            JobState running = expected.state()
                    .orElseGet(() -> JobState.queued(job, settings.tier(), context.startedAt()))
                    .running(settings.taskArn(), clock.instant());
            if (store.replaceMarker(running, expected)) {
                return Claim.RUNNING;
            }
            expected = store.markerSnapshot(job.requestId());
            LOG.infof("marker of %s changed before it could be marked running (attempt %d): now %s", job.requestId(),
                    retry.attempt(), expected.state().map(m -> m.status().wireName()).orElse("absent"));
            if (isCancelled(expected)) {
                return Claim.CANCELLED;
            }
            if (expected.state().map(m -> m.status() == JobStatus.RUNNING).orElse(false)) {
                return Claim.RUNNING;
            }
        } while (retry.another());
        return Claim.CONTENDED;
    }

    private static boolean isCancelled(MarkerSnapshot marker) {
        return marker.state().map(m -> m.status() == JobStatus.CANCELLED).orElse(false);
    }

    private Disposition cancelled(JobContext context, InferenceJob job, ModelIdentity model) {
        emit(context, job, JobOutcome.CANCELLED, null, model, JobContext.Usage.NONE);
        return Disposition.delete();
    }

    private Disposition succeed(JobContext context, InferenceJob job, Inference.Done done, ModelIdentity model) {
        JobResult.Output output;
        JobContext.Usage usage;
        Optional<JobResult.JobError> violation = Optional.empty();
        if (job.task() == Task.SPEECH) {
            output = storeAudio(job.requestId(), done.audio());
            usage = new JobContext.Usage(done.calls(), done.inferenceMs(), 0, 0);
        } else if (job.task() == Task.EMBED) {
            int tokens = done.embeddings().promptTokens();
            usage = new JobContext.Usage(done.calls(), done.inferenceMs(), tokens, 0);
            EmbeddingOutputs.Outcome outcome = EmbeddingOutputs.of(job.embeddingFields().orElseThrow(),
                    done.embeddings().vectors(), model.model(), tokens);
            if (outcome.refusal().isPresent()) {
                boolean written = writeFailed(context, job, outcome.refusal().get(), model);
                emit(context, job, written ? JobOutcome.FAILED : JobOutcome.DUPLICATE, ErrorCodes.INVALID_REQUEST,
                        model, usage);
                return Disposition.delete();
            }
            output = storeLargeEmbeddings(job.requestId(), outcome.output().orElseThrow());
        } else {
            var generation = done.generation();
            output = JobResult.Output.text(generation.text(), JobResult.Usage.of(generation.promptTokens(),
                    generation.completionTokens()), generation.finishReason());
            usage = new JobContext.Usage(done.calls(), done.inferenceMs(), generation.promptTokens(),
                    generation.completionTokens());
            violation = FormatViolations.of(job, generation);
        }
        JobResult.Provenance run = context.provenance(settings.tier(), model, settings.taskArn(), clock);
        JobResult result = (violation.isEmpty() ? JobResult.succeeded(job, output, run, clock.instant())
                : JobResult.failed(job, output, violation.get(), run, clock.instant()))
                .withTrace(Traces.of(Span.current()).orElse(null));
        boolean won = writeResult(result);
        if (won && violation.isEmpty()) {
            cache.cache(job, result, model);
        }
        JobOutcome outcome = !won ? JobOutcome.DUPLICATE : violation.isEmpty() ? JobOutcome.SUCCEEDED
                : JobOutcome.FAILED;
        emit(context, job, outcome, violation.map(JobResult.JobError::code).orElse(null), model, usage);
        return Disposition.delete();
    }

    /** The result, create-only, as the job's "result write" span; false when another delivery's result is there. */
    private boolean writeResult(JobResult result) {
        return inSpan(RESULT_WRITE_SPAN, () -> ResultWrites.persistently(settings.retries().resultWrites(),
                "the result of " + result.requestId(), () -> store.putResultIfAbsent(result)),
                won -> won ? "written" : "exists");
    }

    /** Writes the WAV create-only; if another delivery's audio is there, the result describes that file. */
    private JobResult.Output storeAudio(String requestId, SpeechAudio audio) {
        String key = JobLayout.audioKey(requestId);
        if (!inSpan(RESULT_WRITE_SPAN, () -> ResultWrites.persistently(settings.retries().resultWrites(),
                "the audio of " + requestId, () -> store.putAudioIfAbsent(requestId, audio.wav())),
                won -> won ? "audio written" : "audio exists")) {
            Optional<Wav.Info> stored = store.readAudioHead(requestId, 4096).flatMap(Wav::parse);
            if (stored.isPresent() && stored.get().dataBytes() >= 0) {
                return JobResult.Output.audio(key, "wav", stored.get().sampleRate(),
                        stored.get().declaredDurationMs());
            }
        }
        return JobResult.Output.audio(key, "wav", audio.sampleRate(), audio.durationMs());
    }

    /**
     * Keeps vectors over {@link EmbeddingOutputs#INLINE_LIMIT_BYTES} in their own object, written create-only before
     * the result that names it (as speech audio is); smaller ones stay inline.
     */
    private JobResult.Output storeLargeEmbeddings(String requestId, JobResult.Output inline) {
        byte[] json = JobJson.write(inline.embeddings()).getBytes(StandardCharsets.UTF_8);
        if (EmbeddingOutputs.fitsInline(json.length)) {
            return inline;
        }
        inSpan(RESULT_WRITE_SPAN, () -> ResultWrites.persistently(settings.retries().resultWrites(),
                "the embeddings of " + requestId,
                () -> store.putEmbeddingsIfAbsent(requestId, json)), won -> won ? "embeddings written"
                : "embeddings exist");
        return inline.withEmbeddingsAt(JobLayout.embeddingsKey(requestId));
    }

    private Disposition fail(JobContext context, InferenceJob job, Inference.Failed failed, ModelIdentity model) {
        JobContext.Usage usage = new JobContext.Usage(failed.calls(), failed.inferenceMs(), 0, 0);
        FailureDecision decision = FailureDecision.decide(failed.failure(), context.attempts(), settings.attempts(),
                settings.requeueBackoff(), random);
        if (decision instanceof FailureDecision.Requeue requeue) {
            emit(context, job, JobOutcome.REQUEUED, failed.failure().code(), model, usage);
            return Disposition.release(requeue.delay(), failed.failure().code(), failed.failure().message());
        }
        boolean written = writeFailed(context, job, failed.failure(), model);
        emit(context, job, written ? JobOutcome.FAILED : JobOutcome.DUPLICATE, failed.failure().code(), model, usage);
        if (decision instanceof FailureDecision.FailLastAttempt && written) {
            return Disposition.releaseAfterResult(Duration.ZERO); // visible again: the redrive policy moves it to the DLQ
        }
        return Disposition.delete();
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    private boolean writeFailed(JobContext context, InferenceJob job, ModelFailure failure, ModelIdentity model) {
        return writeFailed(context, job, JobResult.JobError.of(failure.code(), failure.message()), model);
    }

    private boolean writeFailed(JobContext context, InferenceJob job, JobResult.JobError error, ModelIdentity model) {
        JobResult failed = JobResult.failed(job, error,
                context.provenance(settings.tier(), model, settings.taskArn(), clock), clock.instant())
                .withTrace(Traces.of(Span.current()).orElse(null));
        return writeResult(failed);
    }

    private void emit(JobContext context, InferenceJob job, JobOutcome outcome, String errorCode, ModelIdentity model,
                      JobContext.Usage usage) {
        Tier tier = settings.tier();
        Span.current().setAttribute(SpanAttributes.OUTCOME, outcome.wireName());
        if (errorCode != null) {
            Span.current().setAttribute(SpanAttributes.ERROR_CODE, errorCode);
        }
        events.emit(context.event(job, job.task(), tier, outcome, errorCode, model, settings.taskArn(), clock, usage));
    }
}
