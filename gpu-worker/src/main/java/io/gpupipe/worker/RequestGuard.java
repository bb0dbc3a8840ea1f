package io.gpupipe.worker;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One job at a time per requestId in this worker: a second delivery of a job that is already running here (SQS
 * duplicate, or the same job sent twice) waits for the first and then finds its result, so the model runs once.
 */
final class RequestGuard {
    private static final Duration POLL = Duration.ofMillis(50);

    private final ConcurrentHashMap<String, CountDownLatch> running = new ConcurrentHashMap<>();

    Disposition exclusively(String requestId, InFlightMessage message, Supplier<Disposition> work) {
        CountDownLatch mine = new CountDownLatch(1);
        CountDownLatch other;
        while ((other = running.putIfAbsent(requestId, mine)) != null) {
            if (!awaitOther(other, message)) {
                return Disposition.release(Duration.ZERO);
            }
        }
        try {
            return work.get();
        } finally {
            running.remove(requestId, mine);
            mine.countDown();
        }
    }

    private static boolean awaitOther(CountDownLatch other, InFlightMessage message) {
        try {
            while (!other.await(POLL.toMillis(), TimeUnit.MILLISECONDS)) {
                if (message.isAbandoned()) {
                    return false;
                }
            }
            return !message.isAbandoned();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
