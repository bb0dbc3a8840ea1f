package io.gpupipe.worker;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.QueuedJob;
import io.gpupipe.model.seal.MessageOrigin;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.telemetry.Traces;
import io.gpupipe.worker.InferenceRunner.Inference;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.backend.ModelIdentity;
import io.gpupipe.worker.consumption.FailureDecision;
import io.gpupipe.worker.consumption.ModelFailure;
import io.gpupipe.worker.consumption.QueueWait;
import io.gpupipe.worker.consumption.RunningElsewhere;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
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
import org.jboss.logging.Logger;

/**
 * The per-message rules: validate; skip jobs already done, cancelled or expired without touching the model; mark
 * running ({@link MarkerClaim}: conditionally, so a cancel that lands after the read wins); infer; write the result
 * create-only ({@link ResultRecorder}: WAV first, then the JSON naming it); decide what failures mean. The two look-ups before inference run in parallel, so
 * bookkeeping adds two S3 round trips before inference instead of three. The running write is not overlapped with
 * inference any more: a cancel it loses to must stop the job before the model is called.
 */
final class JobProcessor {
    private static final Logger LOG = Logger.getLogger(JobProcessor.class);
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
    private final JobSpans spans;
    private final MarkerClaim claims;
    private final ResultRecorder results;
    private final Function<QueueMessage, MessageOrigin> origins;

    /** {@code origins} tells a sealed message (the router's, the batch function's) from a producer's. */
    JobProcessor(WorkerSettings settings, TierQueue queue, WorkerJobStore store, InferenceBackend backend, JobEvents events,
                 Clock clock, DoubleSupplier random, Executor io, ResultCacheWriter cache, Tracer tracer,
                 Function<QueueMessage, MessageOrigin> origins) {
        this.settings = settings;
        this.origins = origins;
        this.store = store;
        this.backend = backend;
        this.events = events;
        this.clock = clock;
        this.random = random;
        this.io = io;
        this.cache = cache;
        this.spans = new JobSpans(tracer);
        this.runner = new InferenceRunner(backend, settings.modelTimeout(), settings.maxCalls(),
                settings.callBackoff(), clock, random, tracer);
        this.malformed = new MalformedMessages(settings.tier(), settings.taskArn(), queue, store, clock);
        this.claims = new MarkerClaim(store, settings.tier(), settings.taskArn(), settings.retries().markerChanges(),
                RunningElsewhere.of(settings.modelTimeout(), settings.maxCalls(), settings.visibilityTimeout()), clock);
        this.results = new ResultRecorder(settings, store, spans, clock);
    }

    /**
     * Every log line while the message is processed carries the job's log context ({@link JobLogContext}); the
     * delivery is one span ({@link JobSpans#startJob}).
     */
    Disposition process(InFlightMessage inFlight) {
        Span span = spans.startJob(inFlight.message(), settings.tier());
        JobLogContext.enter(settings.tier().wireName(), span);
        try {
            return Traces.within(span, () -> processMessage(inFlight));
        } finally {
            JobLogContext.clear();
        }
    }

    private Disposition processMessage(InFlightMessage inFlight) {
        QueueMessage message = inFlight.message();
        Instant started = clock.instant();
        // a message whose task this tier does not serve is refused like any invalid one, before the model is called
        // only a sealed message may name an API caller's owner; any other is the queue owner's, namespaced
        QueuedJob read = QueuedJob.read(message.body(), this::payload, settings.tiers(), settings.tier(),
                origins.apply(message));
        if (read instanceof QueuedJob.Malformed bad) {
            spans.queueWait(message.sentAt(), started);
            JobContext context = new JobContext(inFlight, started, QueueWait.millis(message.sentAt(), started));
            events.emit(malformed.reject(context, bad));
            return Disposition.delete();
        }
        InferenceJob job = ((QueuedJob.Valid) read).job();
        JobLogContext.requestId(job.requestId());
        Span.current().setAttribute(SpanAttributes.REQUEST_ID, job.requestId());
        Instant submittedAt = QueueWait.submittedAt(job.submittedAt(), message.sentAt());
        spans.queueWait(submittedAt, started);
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
                JobLogContext.carriedTo(() -> store.markerSnapshot(job.requestId())), io);
        boolean resultExists = store.resultExists(job.requestId());
        MarkerSnapshot marker = join(markerRead);
        if (marker.state().map(held -> held.heldByAnother(job)).orElse(false)) {
            // another owner's job, or another request, under this id: this message must not change it
            events.emit(malformed.refuseHeldId(context, job, marker.state().get()));
            return Disposition.delete();
        }
        if (resultExists) {
            emit(context, job, JobOutcome.DUPLICATE, null, model, JobContext.Usage.NONE);
            return Disposition.delete();
        }
        if (MarkerClaim.isCancelled(marker)) {
            return cancelled(context, job, model);
        }
        if (job.isExpiredAt(context.startedAt())) {
            String why = "the job expired before a worker could start it: ttlSeconds " + job.ttlSeconds()
                    + " from " + job.submittedAt() + " had passed at " + context.startedAt();
            boolean written = results.writeFailed(context, job, new ModelFailure(ErrorCodes.EXPIRED, why, false),
                    model);
            emit(context, job, written ? JobOutcome.EXPIRED : JobOutcome.DUPLICATE, ErrorCodes.EXPIRED, model,
                    JobContext.Usage.NONE);
            return Disposition.delete();
        }
        MarkerClaim.Outcome claim = spans.step(JobSpans.MARKER_SPAN,
                () -> claims.claim(job, marker, context.startedAt(), context.attempts()),
                c -> c.name().toLowerCase(Locale.ROOT));
        if (claim == MarkerClaim.Outcome.CANCELLED) {
            return cancelled(context, job, model);
        }
        if (claim == MarkerClaim.Outcome.DUPLICATE) {
            emit(context, job, JobOutcome.DUPLICATE, null, model, JobContext.Usage.NONE);
            return Disposition.delete();
        }
        if (claim == MarkerClaim.Outcome.CONTENDED) {
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

    private Disposition cancelled(JobContext context, InferenceJob job, ModelIdentity model) {
        emit(context, job, JobOutcome.CANCELLED, null, model, JobContext.Usage.NONE);
        return Disposition.delete();
    }

    private Disposition succeed(JobContext context, InferenceJob job, Inference.Done done, ModelIdentity model) {
        JobResult.Output output;
        JobContext.Usage usage;
        Optional<JobResult.JobError> violation = Optional.empty();
        if (job.task() == Task.SPEECH) {
            output = results.audio(job.requestId(), done.audio());
            usage = new JobContext.Usage(done.calls(), done.inferenceMs(), 0, 0);
        } else if (job.task() == Task.EMBED) {
            int tokens = done.embeddings().promptTokens();
            usage = new JobContext.Usage(done.calls(), done.inferenceMs(), tokens, 0);
            EmbeddingOutputs.Outcome outcome = EmbeddingOutputs.of(job.embeddingFields().orElseThrow(),
                    done.embeddings().vectors(), model.model(), tokens);
            if (outcome.refusal().isPresent()) {
                boolean written = results.writeFailed(context, job, outcome.refusal().get(), model);
                emit(context, job, written ? JobOutcome.FAILED : JobOutcome.DUPLICATE, ErrorCodes.INVALID_REQUEST,
                        model, usage);
                return Disposition.delete();
            }
            output = results.embeddings(job.requestId(), outcome.output().orElseThrow());
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
        boolean won = results.write(result);
        if (won && violation.isEmpty()) {
            cache.cache(job, result, model);
        }
        JobOutcome outcome = !won ? JobOutcome.DUPLICATE : violation.isEmpty() ? JobOutcome.SUCCEEDED
                : JobOutcome.FAILED;
        emit(context, job, outcome, violation.map(JobResult.JobError::code).orElse(null), model, usage);
        return Disposition.delete();
    }

    private Disposition fail(JobContext context, InferenceJob job, Inference.Failed failed, ModelIdentity model) {
        JobContext.Usage usage = new JobContext.Usage(failed.calls(), failed.inferenceMs(), 0, 0);
        FailureDecision decision = FailureDecision.decide(failed.failure(), context.attempts(), settings.attempts(),
                settings.requeueBackoff(), random);
        if (decision instanceof FailureDecision.Requeue requeue) {
            emit(context, job, JobOutcome.REQUEUED, failed.failure().code(), model, usage);
            return Disposition.release(requeue.delay(), failed.failure().code(), failed.failure().message());
        }
        boolean written = results.writeFailed(context, job, failed.failure(), model);
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
