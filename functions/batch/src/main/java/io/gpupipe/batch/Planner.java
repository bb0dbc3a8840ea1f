package io.gpupipe.batch;

import io.gpupipe.adapters.BatchFiles;
import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.BatchTasks;
import io.gpupipe.jobs.quota.BatchLinesQuota;
import io.gpupipe.jobs.quota.OwnerQuotas;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.batch.BatchError;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchPlan;
import io.gpupipe.model.batch.BatchPlanner;
import io.gpupipe.model.batch.BatchProgress;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchTask;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.jboss.logging.Logger;

/**
 * PLAN: a retry batch first writes its input from the batch it retries ({@link RetryInput}). Then reads the input
 * file once, streamed, and cuts it into chunks ({@link BatchPlanner}); records the plan and
 * sends one SUBMIT_CHUNK per chunk. An input that cannot be a batch (missing, too large, empty, too many lines) ends
 * the batch {@code failed} with why, OpenAI's validation failure, and so does one whose lines would take its caller
 * over the cap on lines of unfinished batches ({@link BatchLinesQuota}, counted once the lines are known). CANCEL:
 * sends CANCEL_CHUNK to every chunk that has not ended (a batch not yet planned is cancelled by its chunks, which
 * find it cancelling).
 */
@ApplicationScoped
public class Planner {
    private static final Logger LOG = Logger.getLogger(Planner.class);

    private final BatchStore store;
    private final BatchFiles files;
    private final BatchTasks tasks;
    private final Clock clock;
    private final BatchPlanner planner;
    private final RetryInput retryInput;
    private final BatchLinesQuota lines;

    Planner(BatchStore store, BatchFiles files, BatchTasks tasks, Clock clock, BatchConfig config,
            RetryInput retryInput, BatchLinesQuota lines) {
        this.store = store;
        this.lines = lines;
        this.retryInput = retryInput;
        this.files = files;
        this.tasks = tasks;
        this.clock = clock;
        if (config.chunkLines() < 1 || config.chunkLines() > BatchLimits.MAX_CHUNK_LINES) {
            throw new IllegalStateException("gpupipe.batch.chunk-lines must be 1.." + BatchLimits.MAX_CHUNK_LINES
                    + ", got " + config.chunkLines());
        }
        this.planner = new BatchPlanner(BatchLimits.MAX_LINES, config.chunkLines(), BatchLimits.MAX_CHUNK_BYTES);
    }

    public void plan(String batchId) {
        Optional<BatchState> read = store.read(batchId).map(BatchStore.StoredBatch::state);
        if (read.isEmpty() || read.get().status().isTerminal()) {
            LOG.infof("batch %s: nothing to plan (%s)", batchId, read.map(s -> s.status().wireName()).orElse("gone"));
            return;
        }
        BatchState state = read.get();
        BatchPlan plan = state.plan();
        if (plan == null) {
            if (state.retryOf() != null && store.size(state.inputFileId()).isEmpty()) {
                retryInput.write(state);
            }
            BatchPlanner.Outcome outcome = readPlan(state);
            if (outcome instanceof BatchPlanner.Outcome.Refused refused) {
                fail(state, refused.error());
                return;
            }
            BatchPlan planned = ((BatchPlanner.Outcome.Planned) outcome).plan();
            Optional<OwnerQuotas.Admission.Refused> overCap = lines.admit(state, planned.lines());
            if (overCap.isPresent()) {
                fail(state, BatchError.of("line_limit_exceeded", "the batch has " + planned.lines() + " lines; with"
                        + " the lines of your unfinished batches it would exceed your limit of "
                        + overCap.get().limit() + " unfinished batch lines; retry once some have finished"));
                return;
            }
            plan = store.update(batchId, s -> s.plan() == null ? Optional.of(s.planned(planned, clock.instant()))
                    : Optional.empty()).map(BatchState::plan).orElse(planned);
            LOG.infof("batch %s: %d lines in %d chunks", batchId, plan.lines(), plan.chunks().size());
        }
        tasks.sendAll(IntStream.range(0, plan.chunks().size())
                .mapToObj(c -> BatchTask.ofChunk(BatchTask.Type.SUBMIT_CHUNK, batchId, c)).toList());
    }

    public void cancel(String batchId) {
        Optional<BatchState> state = store.read(batchId).map(BatchStore.StoredBatch::state);
        if (state.isEmpty() || state.get().status().isTerminal() || state.get().plan() == null) {
            return;
        }
        BatchProgress progress = BatchProgress.ofKeys(store.list(BatchLayout.endedPrefix(batchId)), List.of());
        List<BatchTask> cancels = progress.running(state.get().plan()).stream()
                .map(c -> BatchTask.ofChunk(BatchTask.Type.CANCEL_CHUNK, batchId, c)).toList();
        LOG.infof("batch %s cancelling: %d chunk(s) still running", batchId, cancels.size());
        tasks.sendAll(cancels);
    }

    private BatchPlanner.Outcome readPlan(BatchState state) {
        Optional<Long> size = store.size(state.inputFileId());
        if (size.isEmpty()) {
            return new BatchPlanner.Outcome.Refused(BatchError.of("input_file_missing", "the input file "
                    + state.inputFileId() + " is gone"));
        }
        Optional<BatchError> tooLarge = BatchPlanner.checkSize(size.get());
        if (tooLarge.isPresent()) {
            return new BatchPlanner.Outcome.Refused(tooLarge.get());
        }
        try (InputStream in = files.open(state.inputFileId())) {
            return planner.plan(in);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + state.inputFileId() + ": " + e.getMessage(), e);
        }
    }

    private void fail(BatchState state, BatchError error) {
        BatchState failed = state.failed(List.of(error), clock.instant());
        LOG.infof("batch %s failed: %s (%s)", state.id(), error.code(), error.message());
        if (!store.createFinal(failed)) {
            LOG.infof("batch %s already had its terminal record", state.id());
        }
        BatchState terminal = store.readFinal(state.id()).orElse(failed);
        store.update(state.id(), s -> s.status().isTerminal() ? Optional.empty() : Optional.of(terminal));
    }
}
