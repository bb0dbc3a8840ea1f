package io.gpupipe.localstack.chaos;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the soak knows about one requestId it created: the scenario it ran under, how its submission went (accepted
 * over HTTP, or sent straight to a queue as poison), the extra copies it was given, and the result objects S3 saw.
 */
public final class SoakJob {
    private final String requestId;
    private final Scenario scenario;
    private final boolean poison;
    private final boolean callback;
    private final AtomicInteger resultWrites = new AtomicInteger();
    private final AtomicInteger acceptedSubmits = new AtomicInteger();
    private final AtomicInteger serverErrors = new AtomicInteger();
    private final AtomicInteger directCopies = new AtomicInteger();
    private volatile long submittedNanos;
    private volatile long firstResultNanos;
    private volatile int rejectedStatus;
    private volatile boolean cancelAccepted;

    public SoakJob(String requestId, Scenario scenario, boolean poison, boolean callback) {
        this.requestId = requestId;
        this.scenario = scenario;
        this.poison = poison;
        this.callback = callback;
    }

    public String requestId() {
        return requestId;
    }

    public Scenario scenario() {
        return scenario;
    }

    /** Sent straight to a queue with a body the worker must reject (it has a requestId to report on). */
    public boolean poison() {
        return poison;
    }

    public boolean callback() {
        return callback;
    }

    /** A job the pipeline owes a terminal state: accepted over HTTP (2xx), or poison with a requestId. */
    public boolean owed() {
        return poison || acceptedSubmits.get() > 0;
    }

    public void submitted(long nanos) {
        if (submittedNanos == 0) {
            submittedNanos = nanos;
        }
    }

    public long submittedNanos() {
        return submittedNanos;
    }

    public void accepted() {
        acceptedSubmits.incrementAndGet();
    }

    public int acceptedSubmits() {
        return acceptedSubmits.get();
    }

    public void serverError() {
        serverErrors.incrementAndGet();
    }

    public int serverErrors() {
        return serverErrors.get();
    }

    public void rejected(int status) {
        rejectedStatus = status;
    }

    public int rejectedStatus() {
        return rejectedStatus;
    }

    public void copied() {
        directCopies.incrementAndGet();
    }

    public int directCopies() {
        return directCopies.get();
    }

    public void cancelAccepted() {
        cancelAccepted = true;
    }

    public boolean isCancelAccepted() {
        return cancelAccepted;
    }

    /** Called for every {@code results/{id}.json} written. */
    public void resultWritten(long nanos) {
        if (resultWrites.getAndIncrement() == 0) {
            firstResultNanos = nanos;
        }
    }

    public int resultWrites() {
        return resultWrites.get();
    }

    public long firstResultNanos() {
        return firstResultNanos;
    }

    /** Nothing more to wait for: a result exists, or a cancel was accepted. */
    public boolean settled() {
        return resultWrites.get() > 0 || cancelAccepted;
    }
}
