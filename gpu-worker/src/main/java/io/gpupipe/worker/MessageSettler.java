package io.gpupipe.worker;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.model.ErrorCodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.jboss.logging.Logger;

/**
 * Settles each delivery exactly once: a success's delete goes to the {@link DeleteBatcher}, a release changes its
 * visibility at once, and a message the drain abandons is released with visibility 0. On a message's last receive a
 * release first writes the job's {@code failed} result ({@link LastReceiveFailures}), since SQS then moves it to the
 * DLQ. Visibility changes hold the lock the heartbeat extends under, so an extension cannot undo a release.
 */
final class MessageSettler implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(MessageSettler.class);

    private final TierQueue queue;
    private final LastReceiveFailures lastReceive;
    private final DeleteBatcher deletes;
    private final ReentrantLock visibilityLock = new ReentrantLock();
    private final AtomicInteger released = new AtomicInteger();

    MessageSettler(TierQueue queue, LastReceiveFailures lastReceive, DeleteBatcher deletes) {
        this.queue = queue;
        this.lastReceive = lastReceive;
        this.deletes = deletes;
    }

    /** The lock every visibility change holds (the heartbeat's too). */
    ReentrantLock visibilityLock() {
        return visibilityLock;
    }

    /** Messages the drain has released so far. */
    int released() {
        return released.get();
    }

    /** Deletes or releases the message as {@code disposition} says, unless the drain released it already. */
    void settle(InFlightMessage message, Disposition disposition) {
        if (!message.trySettle()) {
            return; // drain already released it
        }
        Thread.interrupted(); // a stray interrupt must not abort the one call that settles the message
        try {
            if (disposition instanceof Disposition.Release release) {
                Duration delay = release.delay();
                if (lastReceive.isLastReceive(message.message())) {
                    if (!release.resultWritten()) {
                        lastReceive.writeFailed(message, release.code(), release.why());
                    }
                    delay = Duration.ZERO; // the redrive policy moves it to the DLQ on the next receive
                }
                visibilityLock.lock();
                try {
                    queue.changeVisibility(message.message(), delay);
                } finally {
                    visibilityLock.unlock();
                }
            } else {
                deletes.delete(message.message());
            }
        } catch (RuntimeException e) {
            LOG.warnf("could not settle message %s (%s); it becomes visible again when its visibility lapses",
                    message.message().messageId(), e.getMessage());
        }
    }

    /** Releases, with visibility 0, each message not settled yet; returns how many it released. */
    int abandonAndRelease(List<InFlightMessage> messages) {
        List<QueueMessage> toRelease = new ArrayList<>();
        for (InFlightMessage message : messages) {
            if (message.abandon()) {
                toRelease.add(message.message());
                if (lastReceive.isLastReceive(message.message())) {
                    lastReceive.writeFailed(message, ErrorCodes.WORKER_STOPPED,
                            "the worker shut down before the job could finish on its last delivery");
                }
            }
        }
        if (toRelease.isEmpty()) {
            return 0;
        }
        released.addAndGet(toRelease.size());
        visibilityLock.lock();
        try {
            List<QueueMessage> failed = queue.changeVisibility(toRelease, Duration.ZERO);
            failed.forEach(m -> LOG.warnf("could not release message %s; visible again when its visibility lapses",
                    m.messageId()));
        } catch (RuntimeException e) {
            LOG.warnf("could not release %d message(s): %s", toRelease.size(), e.getMessage());
        } finally {
            visibilityLock.unlock();
        }
        return toRelease.size();
    }

    /** Sends the queued deletes (the drain calls this before the process may exit). */
    @Override
    public void close() {
        deletes.close();
    }
}
