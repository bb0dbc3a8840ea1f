package io.gpupipe.worker.consumption;

/**
 * How many jobs a worker holds for a model server that runs {@code serverSlots} sequences at once (vLLM's
 * {@code --max-num-seqs}). Each job also spends time outside the server: its marker claim before the model call, its
 * result write and the queue hand-off after it. A window of exactly {@code serverSlots} leaves a slot idle for that
 * time (measured: 0.84x of the server's saturated throughput at 16 slots, docs/benchmarks.md), so the worker keeps
 * {@link #headroom} more jobs waiting inside the server on purpose, and the adaptive window ({@link AdaptiveWindow})
 * treats that many waiting requests as the worker's own, not as a server falling behind.
 */
public record WindowSizing(int serverSlots) {
    /** The worker's default when nothing says what the server runs: 16 sequences (the worker benchmark's stand-in). */
    public static final int DEFAULT_SERVER_SLOTS = 16;

    public WindowSizing {
        if (serverSlots < 1) {
            throw new IllegalArgumentException("the model server must run at least 1 sequence, got " + serverSlots);
        }
    }

    /** Jobs kept waiting inside the server so that a freed slot is refilled at once: a quarter of the slots, >= 2. */
    public int headroom() {
        return Math.max(2, (serverSlots + 3) / 4);
    }

    /** The in-flight window: every slot busy plus the headroom. */
    public int window() {
        return serverSlots + headroom();
    }

    /**
     * Whether {@code inFlight} jobs (those the worker still runs, not counting free slots it holds) still cover every
     * server slot: a receive can then wait to carry more messages without leaving the GPU idle.
     */
    public boolean serverStillFull(int inFlight) {
        return inFlight >= serverSlots;
    }
}
