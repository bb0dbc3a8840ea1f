package io.gpupipe.worker.support;

import io.gpupipe.adapters.QueueAttributes;
import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real queue, as seen by a worker process that exits once {@link #exit()} is called (what the JVM does when the
 * drain returns): a receive still outstanding then still takes messages on the server, but nobody gets them; every
 * later call fails.
 */
public final class ExitingJobQueue implements TierQueue {
    private final TierQueue delegate;
    private final AtomicInteger lostToExit = new AtomicInteger();
    private final AtomicInteger receivesInProgress = new AtomicInteger();
    private volatile boolean exited;

    public ExitingJobQueue(TierQueue delegate) {
        this.delegate = delegate;
    }

    public void exit() {
        exited = true;
    }

    /** Messages a receive took from the server after the process had exited. */
    public int lostToExit() {
        return lostToExit.get();
    }

    /** Receives called and not yet returned: 1 while the poller waits in a long poll. */
    public int receivesInProgress() {
        return receivesInProgress.get();
    }

    @Override
    public String queueUrl() {
        return delegate.queueUrl();
    }

    @Override
    public QueueAttributes attributes() {
        alive();
        return delegate.attributes();
    }

    @Override
    public List<QueueMessage> receive(int max, Duration wait) {
        alive();
        List<QueueMessage> received;
        receivesInProgress.incrementAndGet();
        try {
            received = delegate.receive(max, wait);
        } finally {
            receivesInProgress.decrementAndGet();
        }
        if (exited) {
            lostToExit.addAndGet(received.size());
            throw new IllegalStateException("the process exited during this receive");
        }
        return received;
    }

    @Override
    public void delete(QueueMessage message) {
        alive();
        delegate.delete(message);
    }

    @Override
    public List<QueueMessage> delete(List<QueueMessage> messages) {
        alive();
        return delegate.delete(messages);
    }

    @Override
    public void changeVisibility(QueueMessage message, Duration timeout) {
        alive();
        delegate.changeVisibility(message, timeout);
    }

    @Override
    public List<QueueMessage> changeVisibility(List<QueueMessage> messages, Duration timeout) {
        alive();
        return delegate.changeVisibility(messages, timeout);
    }

    @Override
    public void sendToDeadLetterQueue(QueueMessage message, String reason) {
        alive();
        delegate.sendToDeadLetterQueue(message, reason);
    }

    private void alive() {
        if (exited) {
            throw new IllegalStateException("the process has exited");
        }
    }
}
