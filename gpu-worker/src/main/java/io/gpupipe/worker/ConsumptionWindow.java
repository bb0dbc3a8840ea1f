package io.gpupipe.worker;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded in-flight window: a semaphore whose size can change (adaptive mode). The poller asks only for as
 * many messages as it holds permits; each message returns its permit when its job ends.
 */
public final class ConsumptionWindow {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int limit;
    private int inUse;

    public ConsumptionWindow(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("window limit must be at least 1");
        }
        this.limit = limit;
    }

    /** Takes between 1 and {@code max} permits, waiting up to {@code timeout} for one; 0 when none came free. */
    public int acquireUpTo(int max, Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lockInterruptibly();
        try {
            while (inUse >= limit) {
                if (nanos <= 0) {
                    return 0;
                }
                nanos = changed.awaitNanos(nanos);
            }
            int granted = Math.min(max, limit - inUse);
            inUse += granted;
            return granted;
        } finally {
            lock.unlock();
        }
    }

    public void release(int permits) {
        if (permits <= 0) {
            return;
        }
        lock.lock();
        try {
            inUse = Math.max(0, inUse - permits);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Changes the window size; permits already out stay out and are not reissued until below the new size. */
    public void resize(int newLimit) {
        lock.lock();
        try {
            limit = Math.max(1, newLimit);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public int limit() {
        lock.lock();
        try {
            return limit;
        } finally {
            lock.unlock();
        }
    }

    public int inUse() {
        lock.lock();
        try {
            return inUse;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every permit is back (used by tests and drain diagnostics). */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            while (inUse > 0) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = changed.awaitNanos(Math.min(nanos, TimeUnit.MILLISECONDS.toNanos(50)));
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
