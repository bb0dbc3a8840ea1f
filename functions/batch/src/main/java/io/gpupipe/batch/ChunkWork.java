package io.gpupipe.batch;

import io.gpupipe.adapters.BatchFiles;
import io.gpupipe.jobs.CancelOutcome;
import io.gpupipe.jobs.JobCanceller;
import io.gpupipe.jobs.JobLifecycle;
import io.gpupipe.jobs.JobSubmitter;
import io.gpupipe.jobs.LineLedger;
import io.gpupipe.jobs.RoutedJob;
import io.gpupipe.jobs.SubmitOutcome;
import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.QueueUnavailableException;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.batch.BatchLineParser;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchStatus;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.batch.JsonlReader;
import io.gpupipe.model.batch.LineOutcome;
import io.gpupipe.model.batch.ParsedLine;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.routing.RoutingPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * SUBMIT_CHUNK: reads the chunk's byte range, makes each line a job or an error line (the one job validator),
 * writes the manifest, records the error lines, and submits the jobs with the router's rule ({@link JobSubmitter}:
 * create-only markers under ids derived from batch and line, batched sends). Submitted again, a chunk creates no
 * second job. A chunk of a cancelling batch submits nothing: its lines end cancelled. CANCEL_CHUNK: the one cancel
 * rule ({@link JobCanceller}) for each line still queued.
 */
@ApplicationScoped
public class ChunkWork {
    private static final Logger LOG = Logger.getLogger(ChunkWork.class);

    private final BatchStore store;
    private final BatchFiles files;
    private final LineLedger ledger;
    private final JobSubmitter submitter;
    private final JobCanceller canceller;
    private final RoutingPolicy policy;
    private final TierCatalogue tiers;
    private final BatchIo pool;

    ChunkWork(BatchStore store, BatchFiles files, LineLedger ledger, JobLifecycle jobs, RoutingPolicy policy,
              TierCatalogue tiers, BatchIo pool) {
        this.store = store;
        this.files = files;
        this.ledger = ledger;
        this.submitter = jobs.submitter();
        this.canceller = jobs.canceller();
        this.policy = policy;
        this.tiers = tiers;
        this.pool = pool;
    }

    public void submit(String batchId, int chunk) {
        Optional<BatchState> read = store.read(batchId).map(BatchStore.StoredBatch::state);
        if (read.isEmpty() || read.get().status().isTerminal() || read.get().plan() == null) {
            return;
        }
        BatchState state = read.get();
        ChunkPlan plan = state.plan().chunk(chunk);
        List<ParsedLine> lines = parse(state, plan);
        ChunkManifest manifest = ChunkManifest.of(batchId, plan, lines);
        files.createManifest(manifest);
        record(batchId, plan, lines.stream().filter(l -> l instanceof ParsedLine.Invalid)
                .collect(Collectors.toMap(ParsedLine::line, l -> LineOutcome.INVALID)));
        List<RoutedJob> jobs = lines.stream().filter(l -> l instanceof ParsedLine.Job)
                .map(l -> ((ParsedLine.Job) l).job().withSubmittedAt(state.createdAt()).withOwner(state.ownedBy()))
                .map(job -> new RoutedJob(job, policy.route(job))).toList();
        if (state.status() == BatchStatus.CANCELLING) {
            record(batchId, plan, jobs.stream().collect(Collectors.toMap(j -> j.job().batch().line(),
                    j -> LineOutcome.CANCELLED)));
            return;
        }
        List<SubmitOutcome> outcomes = submitter.submitAll(jobs, pool);
        long unavailable = outcomes.stream().filter(o -> o instanceof SubmitOutcome.Unavailable).count();
        LOG.infof("batch %s chunk %d: %d lines, %d jobs submitted, %d not enqueued", batchId, chunk, lines.size(),
                jobs.size() - unavailable, unavailable);
        if (unavailable > 0) {
            throw new QueueUnavailableException(unavailable + " job(s) of batch " + batchId + " chunk " + chunk
                    + " could not be enqueued; the chunk is submitted again", null);
        }
        if (store.read(batchId).map(s -> s.state().status() == BatchStatus.CANCELLING).orElse(false)) {
            cancel(batchId, chunk);
        }
    }

    public void cancel(String batchId, int chunk) {
        Optional<BatchState> state = store.read(batchId).map(BatchStore.StoredBatch::state);
        Optional<ChunkManifest> manifest = files.readManifest(batchId, chunk);
        if (state.isEmpty() || state.get().status().isTerminal() || manifest.isEmpty()) {
            return; // not submitted yet: the chunk finds its batch cancelling and submits nothing
        }
        List<ChunkManifest.Entry> jobs = manifest.get().jobs();
        List<CompletableFuture<CancelOutcome>> cancels = jobs.stream().map(e -> CompletableFuture.supplyAsync(
                () -> canceller.cancel(e.requestId(), JobCanceller.Scope.BATCH_MEMBER), pool)).toList();
        Map<Integer, LineOutcome> cancelled = new TreeMap<>();
        for (int i = 0; i < jobs.size(); i++) {
            CancelOutcome outcome = cancels.get(i).join();
            if (outcome instanceof CancelOutcome.Cancelled || outcome instanceof CancelOutcome.AlreadyCancelled
                    || outcome instanceof CancelOutcome.NotFound) {
                cancelled.put(jobs.get(i).line(), LineOutcome.CANCELLED);
            }
        }
        LOG.infof("batch %s chunk %d: %d of %d jobs cancelled before they started", batchId, chunk, cancelled.size(),
                jobs.size());
        record(batchId, state.get().plan().chunk(chunk), cancelled);
    }

    private void record(String batchId, ChunkPlan plan, Map<Integer, LineOutcome> lines) {
        if (!lines.isEmpty()) {
            ledger.record(batchId, plan.chunk(), plan.lines(), lines, pool);
        }
    }

    private List<ParsedLine> parse(BatchState state, ChunkPlan plan) {
        Map<Integer, Integer> duplicates = plan.duplicates().stream().collect(Collectors.toMap(
                ChunkPlan.Duplicate::line, ChunkPlan.Duplicate::firstLine));
        BatchLineParser parser = new BatchLineParser(new JobRequestParser(UUID::randomUUID, tiers),
                state.endpoint(), state.id(), (int) BatchLimits.COMPLETION_WINDOW_DURATION.toSeconds(),
                line -> new BatchMember(state.id(), plan.chunk(), line, plan.lines()));
        List<ParsedLine> lines = new ArrayList<>(plan.lines());
        try (InputStream in = files.open(state.inputFileId(), plan.byteStart(), plan.byteEnd())) {
            JsonlReader reader = new JsonlReader(in, plan.firstLine(), plan.byteStart(), BatchLimits.MAX_LINE_BYTES);
            for (Optional<JsonlReader.Line> next = reader.next(); next.isPresent(); next = reader.next()) {
                lines.add(parser.parse(next.get(), Optional.ofNullable(duplicates.get(next.get().number()))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading chunk " + plan.chunk() + " of " + state.inputFileId(), e);
        }
        if (lines.size() != plan.lines()) {
            throw new IllegalStateException("chunk " + plan.chunk() + " of " + state.inputFileId() + " read "
                    + lines.size() + " lines, its plan says " + plan.lines() + ": the file changed");
        }
        return lines;
    }
}
