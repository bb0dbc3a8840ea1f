package io.gpupipe.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Long-polls the tier queue for as many messages as the window has free slots, runs each job on its own thread
 * (so the model server can batch them), and settles each message exactly once. {@link #drain} stops receiving at
 * once, lets running jobs finish within the grace, and releases the rest with visibility 0.
 */
final class QueueConsumer {
    private static final Logger LOG = Logger.getLogger(QueueConsumer.class);
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofMillis(500);
    private static final Duration MAX_RECEIVE_BACKOFF = Duration.ofSeconds(20);

    private final JobQueue queue;
    private final Function<InFlightMessage, Disposition> processor;
    private final ConsumptionWindow window;
    private final WorkerSettings settings;
    private final ExecutorService jobs;
    private final Clock clock;
    private final Set<InFlightMessage> inFlight = ConcurrentHashMap.newKeySet();
    private final ReentrantLock visibilityLock = new ReentrantLock();
    private final Thread poller;
    private volatile boolean stopping;
    private volatile Throwable pollerFailure;

    QueueConsumer(JobQueue queue, Function<InFlightMessage, Disposition> processor, ConsumptionWindow window,
                  WorkerSettings settings, ExecutorService jobs, Clock clock) {
        this.queue = queue;
        this.processor = processor;
        this.window = window;
        this.settings = settings;
        this.jobs = jobs;
        this.clock = clock;
        this.poller = new Thread(this::pollSafely, "gpupipe-poller-" + settings.tier().wireName());
        this.poller.setDaemon(true);
    }

    Set<InFlightMessage> inFlight() {
        return inFlight;
    }

    ReentrantLock visibilityLock() {
        return visibilityLock;
    }

    void start() {
        poller.start();
    }

    boolean isPolling() {
        return poller.isAlive() && !stopping;
    }

    Throwable pollerFailure() {
        return pollerFailure;
    }

    private void pollSafely() {
        try {
            poll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            pollerFailure = t;
            LOG.error("the poller stopped unexpectedly", t);
        }
    }

    private void poll() throws InterruptedException {
        Duration backoff = Duration.ofSeconds(1);
        while (!stopping) {
            int permits = window.acquireUpTo(10, ACQUIRE_TIMEOUT);
            if (permits == 0) {
                continue;
            }
            List<QueueMessage> received;
            try {
                received = queue.receive(permits, settings.waitTime());
                backoff = Duration.ofSeconds(1);
            } catch (RuntimeException e) {
                window.release(permits);
                LOG.warnf("receive from %s failed, retrying in %d ms: %s", queue.queueUrl(), backoff.toMillis(),
                        e.getMessage());
                Thread.sleep(backoff.toMillis());
                backoff = backoff.multipliedBy(2).compareTo(MAX_RECEIVE_BACKOFF) > 0 ? MAX_RECEIVE_BACKOFF
                        : backoff.multipliedBy(2);
                continue;
            }
            window.release(permits - received.size());
            Instant now = clock.instant();
            for (QueueMessage message : received) {
                dispatch(new InFlightMessage(message, now, now.plus(settings.visibilityTimeout())));
            }
        }
    }

    private void dispatch(InFlightMessage message) {
        inFlight.add(message);
        if (stopping) {
            abandonAndRelease(List.of(message));
            finished(message);
            return;
        }
        try {
            jobs.execute(() -> runJob(message));
        } catch (RejectedExecutionException e) {
            abandonAndRelease(List.of(message));
            finished(message);
        }
    }

    private void runJob(InFlightMessage message) {
        message.runningOn(Thread.currentThread());
        try {
            settle(message, processor.apply(message));
        } catch (Throwable t) {
            if (message.isAbandoned()) {
                LOG.debugf("job of message %s stopped by drain: %s", message.message().messageId(), t);
            } else {
                LOG.errorf(t, "unexpected failure on message %s; it returns to the queue",
                        message.message().messageId());
                settle(message, Disposition.release(settings.requeueBackoff().delay(
                        Math.max(1, message.message().receiveCount()), Math::random)));
            }
        } finally {
            message.runningOn(null);
            Thread.interrupted();
            finished(message);
        }
    }

    private void finished(InFlightMessage message) {
        if (inFlight.remove(message)) {
            window.release(1);
        }
    }

    private void settle(InFlightMessage message, Disposition disposition) {
        if (!message.trySettle()) {
            return; // drain already released it
        }
        Thread.interrupted(); // a stray interrupt must not abort the one call that settles the message
        try {
            if (disposition instanceof Disposition.Release release) {
                visibilityLock.lock();
                try {
                    queue.changeVisibility(message.message(), release.delay());
                } finally {
                    visibilityLock.unlock();
                }
            } else {
                queue.delete(message.message());
            }
        } catch (RuntimeException e) {
            LOG.warnf("could not settle message %s (%s); it becomes visible again when its visibility lapses",
                    message.message().messageId(), e.getMessage());
        }
    }

    /** Stops receiving, waits up to {@code grace} for running jobs, then releases what is left. */
    DrainReport drain(Duration grace) throws InterruptedException {
        long start = System.nanoTime();
        stopping = true;
        int atStart = inFlight.size();
        long deadline = start + grace.toNanos();
        while (!inFlight.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        int released = abandonAndRelease(new ArrayList<>(inFlight));
        jobs.shutdown();
        poller.join(2_000);
        int finished = Math.max(0, atStart - released);
        return new DrainReport(finished, released, Duration.ofNanos(System.nanoTime() - start).toMillis());
    }

    private int abandonAndRelease(List<InFlightMessage> messages) {
        List<QueueMessage> toRelease = new ArrayList<>();
        for (InFlightMessage message : messages) {
            if (message.abandon()) {
                toRelease.add(message.message());
            }
        }
        if (toRelease.isEmpty()) {
            return 0;
        }
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
}
