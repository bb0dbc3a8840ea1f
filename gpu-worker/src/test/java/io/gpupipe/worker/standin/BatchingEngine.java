package io.gpupipe.worker.standin;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The timing model of continuous batching, as vLLM schedules decoding: up to {@code maxSequences} sequences share
 * each decode step; a step produces one token for every running sequence and takes {@code stepTime} growing by
 * {@code stepGrowth} per extra sequence (memory-bound decoding: a bigger batch costs only a little more per step).
 * Requests beyond the batch wait in a FIFO queue and join at the next step after a slot frees.
 */
final class BatchingEngine implements AutoCloseable {
    private final int maxSequences;
    private final long stepNanos;
    private final double stepGrowth;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Deque<Sequence> waiting = new ArrayDeque<>();
    private final List<Sequence> running = new ArrayList<>();
    private final Thread loop;
    private volatile boolean closed;
    private int maxWaitingSeen;
    private long steps;

    /** One request being generated. */
    static final class Sequence {
        final int tokens;
        final long notBeforeNanos;
        final CompletableFuture<Integer> done = new CompletableFuture<>();
        int generated;

        Sequence(int tokens, Duration minDuration) {
            this.tokens = tokens;
            this.notBeforeNanos = System.nanoTime() + minDuration.toNanos();
        }
    }

    BatchingEngine(int maxSequences, Duration stepTime, double stepGrowth) {
        this.maxSequences = maxSequences;
        this.stepNanos = stepTime.toNanos();
        this.stepGrowth = stepGrowth;
        this.loop = new Thread(this::run, "vllm-standin-engine");
        this.loop.setDaemon(true);
        this.loop.start();
    }

    Sequence submit(int tokens, Duration minDuration) {
        Sequence sequence = new Sequence(tokens, minDuration);
        lock.lock();
        try {
            waiting.add(sequence);
            maxWaitingSeen = Math.max(maxWaitingSeen, waitingAfterAdmission());
            work.signalAll();
        } finally {
            lock.unlock();
        }
        return sequence;
    }

    /** How long one decode step takes with {@code batch} running sequences. */
    long stepNanos(int batch) {
        return (long) (stepNanos * (1 + stepGrowth * (Math.max(1, batch) - 1)));
    }

    int running() {
        lock.lock();
        try {
            return running.size();
        } finally {
            lock.unlock();
        }
    }

    int waiting() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    int maxWaitingSeen() {
        lock.lock();
        try {
            return maxWaitingSeen;
        } finally {
            lock.unlock();
        }
    }

    void resetStatistics() {
        lock.lock();
        try {
            maxWaitingSeen = 0;
            steps = 0;
        } finally {
            lock.unlock();
        }
    }

    private int waitingAfterAdmission() {
        return Math.max(0, waiting.size() - Math.max(0, maxSequences - running.size()));
    }

    private void run() {
        while (!closed) {
            int batch;
            lock.lock();
            try {
                while (running.isEmpty() && waiting.isEmpty() && !closed) {
                    work.awaitUninterruptibly();
                }
                while (running.size() < maxSequences && !waiting.isEmpty()) {
                    running.add(waiting.poll());
                }
                batch = running.size();
            } finally {
                lock.unlock();
            }
            sleepNanos(stepNanos(batch));
            lock.lock();
            try {
                steps++;
                long now = System.nanoTime();
                for (Iterator<Sequence> it = running.iterator(); it.hasNext(); ) {
                    Sequence sequence = it.next();
                    if (sequence.generated < sequence.tokens) {
                        sequence.generated++;
                    }
                    if (sequence.generated >= sequence.tokens && now >= sequence.notBeforeNanos) {
                        it.remove();
                        sequence.done.complete(sequence.generated);
                    }
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private static void sleepNanos(long nanos) {
        long end = System.nanoTime() + nanos;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    @Override
    public void close() {
        closed = true;
        lock.lock();
        try {
            work.signalAll();
            running.forEach(s -> s.done.cancel(false));
            waiting.forEach(s -> s.done.cancel(false));
        } finally {
            lock.unlock();
        }
    }
}
