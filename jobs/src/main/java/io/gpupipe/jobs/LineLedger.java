package io.gpupipe.jobs;

import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.BatchTasks;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.ChunkProgress;
import io.gpupipe.model.batch.LineCounts;
import io.gpupipe.model.batch.LineOutcome;
import io.gpupipe.model.job.BatchMember;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.jboss.logging.Logger;

/**
 * Records that lines of a batch have ended, at a cost bounded per line, never a scan of the batch: a create-only
 * done record per line, one listing of the chunk's done records, the chunk's new progress record (older ones
 * deleted), and, once every line of the chunk has ended, a CHUNK_ENDED task. The notifier records each job's result
 * here; the batch function records invalid and cancelled lines. Every step is idempotent: a repeated record changes
 * nothing, a repeated CHUNK_ENDED is answered once.
 */
public final class LineLedger {
    private static final Logger LOG = Logger.getLogger(LineLedger.class);

    private final BatchStore store;
    private final BatchTasks tasks;

    public LineLedger(BatchStore store, BatchTasks tasks) {
        this.store = store;
        this.tasks = tasks;
    }

    /** One job's line ended (its result was written). */
    public ChunkProgress record(BatchMember member, LineOutcome outcome) {
        return record(member.batchId(), member.chunk(), member.chunkLines(), Map.of(member.line(), outcome),
                Runnable::run);
    }

    /** Lines of one chunk of {@code chunkLines} lines ended; done records written on {@code writers}. */
    public ChunkProgress record(String batchId, int chunk, int chunkLines, Map<Integer, LineOutcome> lines,
                                Executor writers) {
        List<CompletableFuture<Boolean>> writes = lines.entrySet().stream().map(line -> CompletableFuture.supplyAsync(
                () -> store.createEmpty(BatchLayout.doneKey(batchId, chunk, line.getKey(), line.getValue())),
                writers)).toList();
        writes.forEach(CompletableFuture::join);
        ChunkProgress progress = ChunkProgress.ofKeys(store.list(BatchLayout.donePrefix(batchId, chunk)));
        LineCounts counts = progress.counts();
        String latest = BatchLayout.progressKey(batchId, chunk, counts);
        store.createEmpty(latest);
        List<String> older = store.list(BatchLayout.progressPrefix(batchId, chunk)).stream()
                .filter(key -> BatchLayout.parseCountsKey(key).map(c -> c.counts().ended() < counts.ended())
                        .orElse(false)).toList();
        if (!older.isEmpty()) {
            store.deleteAll(older);
        }
        if (progress.isComplete(chunkLines)) {
            LOG.infof("batch %s chunk %d: all %d lines ended", batchId, chunk, chunkLines);
            tasks.send(BatchTask.ofChunk(BatchTask.Type.CHUNK_ENDED, batchId, chunk));
        }
        return progress;
    }
}
