package io.gpupipe.worker;

import io.gpupipe.model.Task;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.retry.RetryPolicy;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.worker.backend.Embeddings;
import io.gpupipe.worker.backend.Generation;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.backend.ModelException;
import io.gpupipe.worker.backend.SpeechAudio;
import io.gpupipe.worker.consumption.Backoff;
import io.gpupipe.worker.consumption.ModelFailure;
import io.gpupipe.worker.consumption.RetryBudget;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/** Runs one job's inference on one delivery: calls the backend, retrying transient failures within the budget. */
final class InferenceRunner {
    static final String MODEL_CALL_SPAN = "model call";
    private final InferenceBackend backend;
    private final Duration budget;
    private final int maxCalls;
    private final Backoff backoff;
    private final Clock clock;
    private final DoubleSupplier random;
    private final Tracer tracer;

    InferenceRunner(InferenceBackend backend, Duration budget, int maxCalls, Backoff backoff, Clock clock,
                    DoubleSupplier random, Tracer tracer) {
        this.tracer = tracer;
        this.backend = backend;
        this.budget = budget;
        this.maxCalls = maxCalls;
        this.backoff = backoff;
        this.clock = clock;
        this.random = random;
    }

    /** How the inference of one delivery ended. */
    sealed interface Inference {
        record Done(Generation generation, SpeechAudio audio, Embeddings embeddings, int calls, long inferenceMs)
                implements Inference {
        }

        record Failed(ModelFailure failure, int calls, long inferenceMs) implements Inference {
        }

        record Abandoned(int calls) implements Inference {
        }
    }

    /** Each model call is a span ("model call") with its attempt number, and its error code when it failed. */
    Inference run(InferenceJob job, InFlightMessage message) {
        RetryBudget retries = RetryBudget.start(clock.instant(), budget, maxCalls, backoff);
        long start = System.nanoTime();
        int calls = 0;
        while (true) {
            if (message.isAbandoned()) {
                return new Inference.Abandoned(calls);
            }
            calls++;
            Span call = tracer.spanBuilder(MODEL_CALL_SPAN).setAttribute(SpanAttributes.ATTEMPT, (long) calls)
                    .startSpan();
            try (Scope ignored = call.makeCurrent()) {
                Duration timeout = retries.callTimeout(clock.instant());
                return switch (job.task()) {
                    case SPEECH -> new Inference.Done(null, backend.speak(job, timeout), null, calls,
                            elapsedMs(start));
                    case EMBED -> new Inference.Done(null, null, backend.embed(job, timeout), calls,
                            elapsedMs(start));
                    case GENERATE -> new Inference.Done(backend.generate(job, timeout), null, null, calls,
                            elapsedMs(start));
                };
            } catch (ModelException e) {
                call.setStatus(StatusCode.ERROR, e.failure().code());
                call.setAttribute(SpanAttributes.ERROR_CODE, e.failure().code());
                call.end();
                if (message.isAbandoned()) {
                    return new Inference.Abandoned(calls);
                }
                RetryBudget.Decision decision = retries.afterFailure(e.failure(), calls, clock.instant(), random);
                if (decision instanceof RetryBudget.Decision.GiveUp giveUp) {
                    ModelFailure failure = e.failure();
                    ModelFailure reported = new ModelFailure(failure.code(), failure.message() + " (" + giveUp.why()
                            + ")", failure.retryable());
                    return new Inference.Failed(reported, calls, elapsedMs(start));
                }
                if (!pause(((RetryBudget.Decision.RetryAfter) decision).delay())) {
                    return new Inference.Abandoned(calls);
                }
            } finally {
                call.end();
            }
        }
    }

    /** The wait {@link RetryBudget} chose, on the sleeper every retry loop uses; false when interrupted. */
    private static boolean pause(Duration delay) {
        try {
            RetryPolicy.Sleeper.THREAD.sleep(delay);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static long elapsedMs(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
