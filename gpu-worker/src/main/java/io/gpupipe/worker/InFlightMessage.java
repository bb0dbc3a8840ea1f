package io.gpupipe.worker;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.model.job.InferenceJob;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A message this worker holds: when its visibility lapses (kept ahead by the heartbeat), and who settles it. It is
 * settled exactly once, by the job (delete or release) or by drain (release), whichever comes first.
 */
public final class InFlightMessage {
    private final QueueMessage message;
    private final Instant receivedAt;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile Instant visibleUntil;
    private volatile boolean abandoned;
    private volatile Thread thread;
    private volatile InferenceJob job;

    public InFlightMessage(QueueMessage message, Instant receivedAt, Instant visibleUntil) {
        this.message = message;
        this.receivedAt = receivedAt;
        this.visibleUntil = visibleUntil;
    }

    public QueueMessage message() {
        return message;
    }

    public Instant receivedAt() {
        return receivedAt;
    }

    public Instant visibleUntil() {
        return visibleUntil;
    }

    void extendedTo(Instant until) {
        visibleUntil = until;
    }

    /** True once drain gave the message back: the job must not write or delete anything more. */
    public boolean isAbandoned() {
        return abandoned;
    }

    boolean isSettled() {
        return settled.get();
    }

    /** Claims the right to delete or release the message; false when drain already released it. */
    boolean trySettle() {
        return settled.compareAndSet(false, true);
    }

    /**
     * Takes the message away from its job: true when the caller now owns the release. Only then is the job marked
     * abandoned and interrupted; a job already deleting or releasing its message is left to finish that call.
     */
    boolean abandon() {
        if (!trySettle()) {
            return false;
        }
        abandoned = true;
        Thread running = thread;
        if (running != null) {
            running.interrupt();
        }
        return true;
    }

    /** The job the message carries, once the processor has read it. */
    Optional<InferenceJob> job() {
        return Optional.ofNullable(job);
    }

    void carries(InferenceJob parsed) {
        job = parsed;
    }

    void runningOn(Thread current) {
        thread = current;
    }
}
