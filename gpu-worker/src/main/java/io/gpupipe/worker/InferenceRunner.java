package io.gpupipe.worker;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.Task;
import io.gpupipe.model.consumption.Backoff;
import io.gpupipe.model.consumption.ModelFailure;
import io.gpupipe.model.consumption.RetryBudget;
import io.gpupipe.worker.backend.Generation;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.backend.ModelException;
import io.gpupipe.worker.backend.SpeechAudio;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/** Runs one job's inference on one delivery: calls the backend, retrying transient failures within the budget. */
final class InferenceRunner {
    private final InferenceBackend backend;
    private final Duration budget;
    private final int maxCalls;
    private final Backoff backoff;
    private final Clock clock;
    private final DoubleSupplier random;

    InferenceRunner(InferenceBackend backend, Duration budget, int maxCalls, Backoff backoff, Clock clock,
                    DoubleSupplier random) {
        this.backend = backend;
        this.budget = budget;
        this.maxCalls = maxCalls;
        this.backoff = backoff;
        this.clock = clock;
        this.random = random;
    }

    /** How the inference of one delivery ended. */
    sealed interface Inference {
        record Done(Generation generation, SpeechAudio audio, int calls, long inferenceMs) implements Inference {
        }

        record Failed(ModelFailure failure, int calls, long inferenceMs) implements Inference {
        }

        record Abandoned(int calls) implements Inference {
        }
    }

    Inference run(InferenceJob job, InFlightMessage message) {
        RetryBudget retries = RetryBudget.start(clock.instant(), budget, maxCalls, backoff);
        long start = System.nanoTime();
        int calls = 0;
        while (true) {
            if (message.isAbandoned()) {
                return new Inference.Abandoned(calls);
            }
            calls++;
            try {
                Duration timeout = retries.callTimeout(clock.instant());
                if (job.task() == Task.SPEECH) {
                    return new Inference.Done(null, backend.speak(job, timeout), calls, elapsedMs(start));
                }
                return new Inference.Done(backend.generate(job, timeout), null, calls, elapsedMs(start));
            } catch (ModelException e) {
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
            }
        }
    }

    private static boolean pause(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
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
