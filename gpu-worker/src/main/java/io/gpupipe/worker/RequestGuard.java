package io.gpupipe.worker;

import io.gpupipe.model.ErrorCodes;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One job at a time per requestId in this worker. A second delivery of a job already running here (SQS duplicate,
 * or the same job sent twice) goes back to the queue for as long as the original can run (the model timeout) and
 * gives its window slot back at once, instead of holding the slot for the whole original job; when it returns it
 * finds the result, so the model runs once. On
 * its last receive it waits for the original instead: released, SQS would dead-letter a job that is running fine.
 */
final class RequestGuard {
    private static final Duration POLL = Duration.ofMillis(50);

    private final ConcurrentHashMap<String, CountDownLatch> running = new ConcurrentHashMap<>();

    Disposition exclusively(String requestId, InFlightMessage message, boolean lastReceive, Duration releaseDelay,
                            Supplier<Disposition> work) {
        CountDownLatch mine = new CountDownLatch(1);
        CountDownLatch other;
        while ((other = running.putIfAbsent(requestId, mine)) != null) {
            if (!lastReceive) {
                return Disposition.release(releaseDelay, ErrorCodes.WORKER_ERROR,
                        "another delivery of this job was running in the same worker");
            }
            if (!awaitOther(other, message)) {
                return Disposition.release(Duration.ZERO, ErrorCodes.WORKER_STOPPED,
                        "the worker shut down while another delivery of this job ran");
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
