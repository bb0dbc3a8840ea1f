package io.gpupipe.worker;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.consumption.CallBatching;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Long-polls the tier queue for as many messages as the window has free slots, runs each job on its own thread
 * (so the model server can batch them), and settles each message exactly once ({@link MessageSettler}): deletes go
 * out in batches, releases at once. A receive waits for more free slots while they keep coming, and briefly after
 * emptying the queue, so that one call carries several messages ({@link CallBatching}). {@link #drain} stops
 * receiving at once, lets running jobs finish within the grace, releases the rest with visibility 0, and returns only
 * after the long poll in progress has ended and whatever it brought is released too.
 */
final class QueueConsumer {
    private static final Logger LOG = Logger.getLogger(QueueConsumer.class);
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofMillis(500);
    /** How receives, fills and deletes share calls (shared-model {@link CallBatching}). */
    static final CallBatching BATCHING = CallBatching.defaults();
    /** Beyond the long-poll wait, how long the drain waits for a receive that started before it to return. */
    private static final Duration RECEIVE_MARGIN = Duration.ofSeconds(5);

    private final TierQueue queue;
    private final Function<InFlightMessage, Disposition> processor;
    private final MessageSettler settler;
    private final ConsumptionWindow window;
    private final WorkerSettings settings;
    private final ExecutorService jobs;
    private final Clock clock;
    private final Set<InFlightMessage> inFlight = ConcurrentHashMap.newKeySet();
    private final Thread poller;
    private volatile boolean stopping;
    private volatile Throwable pollerFailure;

    QueueConsumer(TierQueue queue, Function<InFlightMessage, Disposition> processor, LastReceiveFailures lastReceive,
                  ConsumptionWindow window, WorkerSettings settings, ExecutorService jobs, Clock clock) {
        this.queue = queue;
        this.processor = processor;
        this.settler = new MessageSettler(queue, lastReceive, new DeleteBatcher(queue,
                "gpupipe-deletes-" + settings.tier().wireName(), BATCHING.deleteLinger(settings.visibilityTimeout()),
                settings.retries().deletes()));
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
        return settler.visibilityLock();
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
        Retry receives = settings.retries().receives().start();
        Duration pause = Duration.ZERO;
        while (!stopping) {
            pause(pause);
            pause = Duration.ZERO;
            int permits = fill(window.acquireUpTo(CallBatching.MAX_MESSAGES, ACQUIRE_TIMEOUT));
            if (permits == 0) {
                continue;
            }
            if (stopping) {
                window.release(permits);
                break;
            }
            List<QueueMessage> received;
            try {
                received = queue.receive(permits, settings.waitTime());
                receives.reset();
            } catch (RuntimeException e) {
                window.release(permits);
                LOG.warnf("receive %d from %s failed, retrying in up to %d ms: %s", receives.attempt(),
                        queue.queueUrl(), receives.nextCap().toMillis(), e.getMessage());
                if (!receives.another()) {
                    throw new InterruptedException("interrupted after a failed receive");
                }
                continue;
            }
            window.release(permits - received.size());
            dispatch(received);
            pause = BATCHING.pauseAfter(permits, received.size());
        }
    }

    /**
     * Holding {@code permits}, waits for more while free slots keep coming, or while the jobs still in flight fill
     * every server slot ({@link CallBatching#fillWait}), so that one receive asks for all of them.
     */
    private int fill(int permits) throws InterruptedException {
        int target = BATCHING.target(window.limit());
        long first = System.nanoTime();
        long last = first;
        int held = permits;
        while (!stopping) {
            long now = System.nanoTime();
            boolean serverStillFull = settings.windowSizing().serverStillFull(window.inUse() - held);
            Duration wait = BATCHING.fillWait(held, target, serverStillFull, Duration.ofNanos(now - first),
                    Duration.ofNanos(now - last));
            if (wait.isZero()) {
                break;
            }
            int more = window.acquireUpTo(target - held, wait);
            if (more > 0) {
                held += more;
                last = System.nanoTime();
            }
        }
        return held;
    }

    /** The trickle pause ({@link CallBatching#pauseAfter}); cut short by a drain. */
    private void pause(Duration pause) throws InterruptedException {
        long deadline = System.nanoTime() + pause.toNanos();
        while (!stopping && System.nanoTime() < deadline) {
            Thread.sleep(Math.max(1, Math.min(10, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
        }
    }

    private void dispatch(List<QueueMessage> received) {
        Instant now = clock.instant();
        List<InFlightMessage> messages = new ArrayList<>(received.size());
        for (QueueMessage message : received) {
            messages.add(new InFlightMessage(message, now, now.plus(settings.visibilityTimeout())));
        }
        inFlight.addAll(messages);
        if (stopping) { // received by a long poll that began before the drain: straight back to the queue
            settler.abandonAndRelease(messages);
            messages.forEach(this::finished);
            return;
        }
        for (InFlightMessage message : messages) {
            try {
                jobs.execute(() -> runJob(message));
            } catch (RejectedExecutionException e) {
                settler.abandonAndRelease(List.of(message));
                finished(message);
            }
        }
    }

    private void runJob(InFlightMessage message) {
        message.runningOn(Thread.currentThread());
        try {
            if (message.isAbandoned()) {
                return; // the drain released it before its job began
            }
            settler.settle(message, processor.apply(message));
        } catch (Throwable t) {
            if (message.isAbandoned()) {
                LOG.debugf("job of message %s stopped by drain: %s", message.message().messageId(), t);
            } else {
                LOG.errorf(t, "unexpected failure on message %s; it returns to the queue",
                        message.message().messageId());
                settler.settle(message, Disposition.release(settings.requeueBackoff().delay(
                        Math.max(1, message.message().receiveCount()), Math::random), ErrorCodes.WORKER_ERROR,
                        "the worker failed unexpectedly: " + t));
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

    /**
     * Stops receiving, waits up to {@code grace} for running jobs, releases what is left, and waits for the receive
     * in progress (a long poll that began before the drain) to return, so that nothing it brings stays invisible once
     * the process has exited; then sends the queued deletes.
     */
    DrainReport drain(Duration grace) throws InterruptedException {
        long start = System.nanoTime();
        stopping = true;
        int atStart = inFlight.size();
        long deadline = start + grace.toNanos();
        while (!inFlight.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        int releasedInFlight = settler.abandonAndRelease(new ArrayList<>(inFlight));
        jobs.shutdown();
        long receiveDeadline = start + settings.waitTime().plus(RECEIVE_MARGIN).toNanos();
        poller.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(receiveDeadline - System.nanoTime())));
        if (poller.isAlive()) {
            LOG.warnf("the receive from %s did not return in time; what it brings may stay invisible until its "
                    + "visibility lapses", queue.queueUrl());
        }
        jobs.awaitTermination(1, TimeUnit.SECONDS);
        settler.close();
        int finished = Math.max(0, atStart - releasedInFlight);
        return new DrainReport(finished, settler.released(), Duration.ofNanos(System.nanoTime() - start).toMillis());
    }
}
