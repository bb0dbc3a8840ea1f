package io.gpupipe.batch;

import io.gpupipe.adapters.BatchFiles;
import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchProgress;
import io.gpupipe.model.batch.BatchState;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.jboss.logging.Logger;

/**
 * FINALIZE: every chunk has ended. Streams the chunks' parts, in order, into {@code output.jsonl} and
 * {@code errors.jsonl}, then writes the terminal record create-only: of concurrent finalizers exactly one write wins,
 * and its creation is what makes the notifier send the one batch event. The record then reads terminal too.
 */
@ApplicationScoped
public class Finalizer {
    private static final Logger LOG = Logger.getLogger(Finalizer.class);

    private final BatchStore store;
    private final BatchFiles files;
    private final Clock clock;

    Finalizer(BatchStore store, BatchFiles files, Clock clock) {
        this.store = store;
        this.files = files;
        this.clock = clock;
    }

    public void finish(String batchId) {
        Optional<BatchState> read = store.read(batchId).map(BatchStore.StoredBatch::state);
        if (read.isEmpty() || read.get().status().isTerminal() || read.get().plan() == null) {
            return;
        }
        BatchState state = read.get();
        Optional<BatchState> earlier = store.readFinal(batchId);
        if (earlier.isEmpty()) {
            BatchProgress progress = BatchProgress.ofKeys(store.list(BatchLayout.endedPrefix(batchId)), List.of());
            if (!progress.allEnded(state.plan())) {
                return;
            }
            Instant started = clock.instant();
            String output = assemble(state, BatchLayout.File.OUTPUT);
            String errors = assemble(state, BatchLayout.File.ERRORS);
            BatchState terminal = state.finished(progress.endedCounts(), output, errors, started, clock.instant());
            boolean won = store.createFinal(terminal);
            LOG.infof("batch %s %s: %s%s", batchId, terminal.status().wireName(), terminal.counts(),
                    won ? "" : " (another finalizer's record won)");
        }
        BatchState terminal = store.readFinal(batchId).orElseThrow();
        store.update(batchId, s -> s.status().isTerminal() ? Optional.empty() : Optional.of(terminal));
    }

    /** The file's key once written, or null when no line belongs in it. */
    private String assemble(BatchState state, BatchLayout.File file) {
        List<String> parts = IntStream.range(0, state.plan().chunks().size())
                .mapToObj(c -> BatchLayout.partKey(state.id(), c, file)).toList();
        String key = BatchLayout.fileKey(state.id(), file);
        return files.concatenate(key, parts) > 0 ? key : null;
    }
}
