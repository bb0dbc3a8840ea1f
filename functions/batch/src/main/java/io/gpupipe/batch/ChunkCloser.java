package io.gpupipe.batch;

import io.gpupipe.adapters.BatchFiles;
import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.BatchTasks;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchOutputs;
import io.gpupipe.model.batch.BatchProgress;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.batch.ChunkProgress;
import io.gpupipe.model.batch.LineOutcome;
import io.gpupipe.model.job.JobResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jboss.logging.Logger;

/**
 * CHUNK_ENDED: every line of the chunk has ended. Writes the chunk's part of the output and error files (one
 * OpenAI-format line per input line, in line order: results read once, here), then its ended record, whose key
 * carries its counts; once every chunk has one, sends FINALIZE. Repeated, it writes the same parts and changes
 * nothing else.
 */
@ApplicationScoped
public class ChunkCloser {
    private static final Logger LOG = Logger.getLogger(ChunkCloser.class);

    private final BatchStore store;
    private final BatchFiles files;
    private final BatchTasks tasks;
    private final BatchIo pool;

    ChunkCloser(BatchStore store, BatchFiles files, BatchTasks tasks, BatchIo pool) {
        this.store = store;
        this.files = files;
        this.tasks = tasks;
        this.pool = pool;
    }

    public void close(String batchId, int chunk) {
        Optional<BatchState> read = store.read(batchId).map(BatchStore.StoredBatch::state);
        if (read.isEmpty() || read.get().status().isTerminal() || read.get().plan() == null) {
            return;
        }
        BatchState state = read.get();
        ChunkPlan plan = state.plan().chunk(chunk);
        BatchProgress before = BatchProgress.ofKeys(store.list(BatchLayout.endedPrefix(batchId)), List.of());
        if (!before.ended().containsKey(chunk)) {
            ChunkProgress progress = ChunkProgress.ofKeys(store.list(BatchLayout.donePrefix(batchId, chunk)));
            if (!progress.isComplete(plan.lines())) {
                LOG.infof("batch %s chunk %d: %d of %d lines ended, not closing yet", batchId, chunk,
                        progress.outcomes().size(), plan.lines());
                return;
            }
            ChunkManifest manifest = files.readManifest(batchId, chunk).orElseThrow(() -> new IllegalStateException(
                    "batch " + batchId + " chunk " + chunk + " has ended lines but no manifest"));
            writeParts(state, manifest, progress);
            store.createEmpty(BatchLayout.endedKey(batchId, chunk, progress.counts()));
            store.deleteAll(store.list(BatchLayout.progressPrefix(batchId, chunk)));
            LOG.infof("batch %s chunk %d ended: %s", batchId, chunk, progress.counts());
        }
        BatchProgress after = BatchProgress.ofKeys(store.list(BatchLayout.endedPrefix(batchId)), List.of());
        if (after.allEnded(state.plan())) {
            tasks.send(BatchTask.of(BatchTask.Type.FINALIZE, batchId));
        }
    }

    private void writeParts(BatchState state, ChunkManifest manifest, ChunkProgress progress) {
        List<CompletableFuture<BatchOutputs.Written>> lines = manifest.entries().stream()
                .map(entry -> CompletableFuture.supplyAsync(() -> line(state, entry, progress), pool)).toList();
        Map<BatchLayout.File, ByteArrayOutputStream> parts = new EnumMap<>(BatchLayout.File.class);
        for (BatchLayout.File file : BatchLayout.File.values()) {
            parts.put(file, new ByteArrayOutputStream());
        }
        for (CompletableFuture<BatchOutputs.Written> future : lines) {
            BatchOutputs.Written written = future.join();
            parts.get(written.file()).writeBytes((written.line().toJson() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        parts.forEach((file, bytes) -> files.put(BatchLayout.partKey(state.id(), manifest.chunk(), file),
                bytes.toByteArray()));
    }

    private BatchOutputs.Written line(BatchState state, ChunkManifest.Entry entry, ChunkProgress progress) {
        LineOutcome outcome = progress.outcomes().get(entry.line());
        Optional<JobResult> result = entry.error() != null ? Optional.empty() : files.readResult(entry.requestId());
        return BatchOutputs.ofEnded(state.id(), entry, outcome, result, state.endpoint()).orElseThrow(() ->
                new IllegalStateException("line " + entry.line() + " of batch " + state.id() + " ended " + outcome
                        + " but its result " + entry.requestId() + " is not readable yet"));
    }
}
