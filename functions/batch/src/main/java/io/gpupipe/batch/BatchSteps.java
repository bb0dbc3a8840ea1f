package io.gpupipe.batch;

import io.gpupipe.model.batch.BatchTask;
import jakarta.enterprise.context.ApplicationScoped;

/** Runs one step of a batch's life (the closed set of {@link BatchTask.Type}, one class each). */
@ApplicationScoped
public class BatchSteps {
    private final Planner planner;
    private final ChunkWork chunks;
    private final ChunkCloser closer;
    private final Finalizer finalizer;

    BatchSteps(Planner planner, ChunkWork chunks, ChunkCloser closer, Finalizer finalizer) {
        this.planner = planner;
        this.chunks = chunks;
        this.closer = closer;
        this.finalizer = finalizer;
    }

    public void run(BatchTask task) {
        switch (task.type()) {
            case PLAN -> planner.plan(task.batchId());
            case SUBMIT_CHUNK -> chunks.submit(task.batchId(), task.chunk());
            case CANCEL -> planner.cancel(task.batchId());
            case CANCEL_CHUNK -> chunks.cancel(task.batchId(), task.chunk());
            case CHUNK_ENDED -> closer.close(task.batchId(), task.chunk());
            case FINALIZE -> finalizer.finish(task.batchId());
        }
    }
}
