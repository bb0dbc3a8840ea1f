package io.gpupipe.worker;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.model.consumption.CallBatching;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.model.retry.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Deletes finished messages with DeleteMessageBatch: up to 10 per call, waiting at most {@code linger} after the
 * first for more. A message is handed over only after its result is durable, so a delete that is late, or that fails
 * even when retried, costs nothing but a redelivery, which finds the result and is deleted without inference.
 */
final class DeleteBatcher implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(DeleteBatcher.class);
    static final int MAX_BATCH = CallBatching.MAX_MESSAGES;

    private final TierQueue queue;
    private final BlockingQueue<QueueMessage> pending = new LinkedBlockingQueue<>();
    private final Duration linger;
    private final RetryPolicy retries;
    private final Thread flusher;
    private volatile boolean closed;

    DeleteBatcher(TierQueue queue, String name, Duration linger, RetryPolicy retries) {
        this.queue = queue;
        this.linger = linger;
        this.retries = retries;
        this.flusher = new Thread(this::run, name);
        this.flusher.setDaemon(true);
        this.flusher.start();
    }

    /** Queues the message's delete; its result must already be written. */
    void delete(QueueMessage message) {
        pending.add(message);
        if (closed) {
            flushNow();
        }
    }

    /** Sends every queued delete, then stops (the drain calls this before the process may exit). */
    @Override
    public void close() {
        closed = true;
        try {
            flusher.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushNow();
    }

    private void run() {
        try {
            while (!closed || !pending.isEmpty()) {
                QueueMessage first = pending.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                List<QueueMessage> batch = new ArrayList<>(List.of(first));
                long deadline = System.nanoTime() + linger.toNanos();
                while (batch.size() < MAX_BATCH && !closed) {
                    QueueMessage next = pending.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                    if (next == null) {
                        break;
                    }
                    batch.add(next);
                }
                pending.drainTo(batch, MAX_BATCH - batch.size());
                send(batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void flushNow() {
        List<QueueMessage> batch = new ArrayList<>();
        while (pending.drainTo(batch, MAX_BATCH) > 0) {
            send(batch);
            batch.clear();
        }
    }

    /** One batch call, and retries of whatever it did not delete, as the policy says. */
    private void send(List<QueueMessage> batch) {
        Retry retry = retries.start();
        List<QueueMessage> failed = attempt(batch);
        while (!failed.isEmpty() && retry.another()) {
            failed = attempt(failed);
        }
        failed.forEach(m -> LOG.warnf("could not delete message %s; it will be redelivered, found done and deleted",
                m.messageId()));
    }

    private List<QueueMessage> attempt(List<QueueMessage> batch) {
        try {
            return queue.delete(batch);
        } catch (RuntimeException e) {
            LOG.warnf("deleting %d message(s) failed: %s", batch.size(), e.getMessage());
            return batch;
        }
    }
}
