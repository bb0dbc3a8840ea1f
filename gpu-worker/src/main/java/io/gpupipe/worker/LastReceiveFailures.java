package io.gpupipe.worker;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.QueuedJob;
import io.gpupipe.model.seal.MessageOrigin;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.consumption.QueueWait;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * On a message's last receive, SQS moves a released message to the DLQ instead of delivering it again, so every
 * release there (unexpected error, contended claim, drain) first writes a create-only {@code failed} result: the
 * client learns the outcome from the worker that knew why. If even that write fails, the dead-letter handler writes
 * {@code dead_lettered} for the job.
 */
final class LastReceiveFailures {
    private static final Logger LOG = Logger.getLogger(LastReceiveFailures.class);

    private final WorkerSettings settings;
    private final WorkerJobStore store;
    private final InferenceBackend backend;
    private final Clock clock;
    private final Function<QueueMessage, MessageOrigin> origins;

    /** {@code origins} tells whose a message's job is, as the processor does (a producer's is namespaced). */
    LastReceiveFailures(WorkerSettings settings, WorkerJobStore store, InferenceBackend backend, Clock clock,
                        Function<QueueMessage, MessageOrigin> origins) {
        this.origins = origins;
        this.settings = settings;
        this.store = store;
        this.backend = backend;
        this.clock = clock;
    }

    boolean isLastReceive(QueueMessage message) {
        return settings.attempts().isLastAttempt(message.receiveCount());
    }

    /** Writes the {@code failed} result of the message's job (never throws: the message is released either way). */
    void writeFailed(InFlightMessage message, String code, String why) {
        Optional<InferenceJob> job = message.job().or(() -> parse(message.message()));
        if (job.isEmpty()) {
            return; // no readable job: the malformed-message path or the dead-letter handler deals with it
        }
        JobContext context = new JobContext(message, message.receivedAt(),
                QueueWait.millis(QueueWait.submittedAt(job.get().submittedAt(), message.message().sentAt()),
                        message.receivedAt()));
        JobResult failed = JobResult.failed(job.get(), JobResult.JobError.of(code, why),
                context.provenance(settings.tier(), backend.identity(job.get().task()), settings.taskArn(), clock),
                clock.instant());
        boolean interrupted = Thread.interrupted(); // a drain's interrupt must not abort this last write
        try {
            boolean written = ResultWrites.persistently(settings.retries().resultWrites(),
                    "the failed result of " + job.get().requestId(),
                    () -> store.putResultIfAbsent(failed));
            LOG.infof("last receive of %s released: %s", job.get().requestId(),
                    written ? "wrote failed/" + code + " (" + why + ")" : "a result already exists");
        } catch (RuntimeException e) {
            LOG.errorf("could not write the failed result of %s on its last receive (%s); the dead-letter handler "
                    + "will record it", job.get().requestId(), e.getMessage());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Optional<InferenceJob> parse(QueueMessage message) {
        return QueuedJob.read(message.body(), key -> Optional.empty(), settings.tiers(), null,
                origins.apply(message)) instanceof QueuedJob.Valid v ? Optional.of(v.job()) : Optional.empty();
    }
}
