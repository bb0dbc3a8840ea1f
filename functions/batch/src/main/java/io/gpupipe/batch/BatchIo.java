package io.gpupipe.batch;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The threads a chunk's S3 and SQS calls run on at once (marker writes, cancels, result reads): a type of its own,
 * so it is never mistaken for Quarkus's managed executor.
 */
public final class BatchIo implements Executor, AutoCloseable {
    private final ExecutorService pool;

    public BatchIo(int threads) {
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread thread = new Thread(r, "batch-io");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void execute(Runnable command) {
        pool.execute(command);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
