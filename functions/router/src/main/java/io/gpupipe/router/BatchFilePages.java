package io.gpupipe.router;

import io.gpupipe.adapters.BatchFiles;
import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.OwnedBatchStore;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchOutputs;
import io.gpupipe.model.batch.BatchProgress;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.batch.ChunkProgress;
import io.gpupipe.model.batch.LineOutcome;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerOwners;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * {@code GET /v1/batches/{id}/output} and {@code .../errors}: a batch's output or error file as it is now, running or
 * ended, one page per chunk (at most 1,000 input lines): the lines that have ended so far, in input order, in the
 * file's OpenAI format. An ended chunk's page is its part of the file as written (one S3 read); a running chunk's is
 * built from its manifest, its done records and the results of its ended jobs, by the chunk closer's own rule
 * ({@link BatchOutputs#ofEnded}): 2 S3 calls and one read per ended job line, on a few threads.
 */
public final class BatchFilePages {
    private static final int RESULT_READERS = 16;

    private final BatchStore store;
    private final BatchFiles files;
    private final Executor readers = Executors.newFixedThreadPool(RESULT_READERS, r -> {
        Thread thread = new Thread(r, "batch-page-reader");
        thread.setDaemon(true);
        return thread;
    });

    public BatchFilePages(BatchStore store, BatchFiles files) {
        this.store = store;
        this.files = files;
    }

    /**
     * Page {@code rawPage} (null: the first) of {@code file} of batch {@code rawId}, as {@code owners}' caller sees
     * it.
     */
    public BatchOutcome page(String rawId, CallerOwners owners, BatchLayout.File file, String rawPage) {
        if (!BatchIds.isValidBatchId(rawId)) {
            return new BatchOutcome.InvalidId();
        }
        BatchStore owned = new OwnedBatchStore(store, owners);
        Optional<BatchState> read = owned.read(rawId).map(BatchStore.StoredBatch::state);
        if (read.isEmpty()) {
            return new BatchOutcome.NotFound(rawId);
        }
        BatchState batch = read.get();
        int pages = batch.plan() == null ? 0 : batch.plan().chunks().size();
        int page;
        try {
            page = rawPage == null ? 0 : Integer.parseInt(rawPage);
        } catch (NumberFormatException e) {
            return rejected(ErrorCodes.INVALID_TYPE, "page is a chunk number, 0 or more; got " + rawPage);
        }
        if (page < 0 || page > Math.max(0, pages - 1)) {
            return rejected(ErrorCodes.OUT_OF_RANGE, "page must be 0.." + Math.max(0, pages - 1) + " (the batch has "
                    + pages + " page(s) of up to 1,000 input lines); got " + page);
        }
        if (pages == 0) {
            return new BatchOutcome.FilePage(rawId, "", 0, 0); // not planned yet, or its input was refused
        }
        boolean ended = BatchProgress.ofKeys(owned.list(BatchLayout.endedPrefix(rawId)), List.of()).ended()
                .containsKey(page);
        String jsonl = ended ? readPart(BatchLayout.partKey(rawId, page, file)) : linesSoFar(owned, batch, page, file);
        return new BatchOutcome.FilePage(rawId, jsonl, page, pages);
    }

    private String readPart(String key) {
        try (InputStream in = files.open(key)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + key, e);
        }
    }

    private String linesSoFar(BatchStore owned, BatchState batch, int chunk, BatchLayout.File file) {
        Optional<ChunkManifest> manifest = files.readManifest(batch.id(), chunk);
        if (manifest.isEmpty()) {
            return ""; // not submitted yet: no line has ended
        }
        ChunkProgress progress = ChunkProgress.ofKeys(owned.list(BatchLayout.donePrefix(batch.id(), chunk)));
        List<CompletableFuture<Optional<BatchOutputs.Written>>> lines = manifest.get().entries().stream()
                .map(entry -> {
                    LineOutcome outcome = progress.outcomes().get(entry.line());
                    boolean hasResult = entry.error() == null && outcome != null && outcome.hasResult();
                    return CompletableFuture.supplyAsync(() -> BatchOutputs.ofEnded(batch.id(), entry, outcome,
                            hasResult ? files.readResult(entry.requestId()) : Optional.<JobResult>empty(),
                            batch.endpoint()), readers);
                }).toList();
        StringBuilder jsonl = new StringBuilder();
        for (CompletableFuture<Optional<BatchOutputs.Written>> line : lines) {
            line.join().filter(written -> written.file() == file)
                    .ifPresent(written -> jsonl.append(written.line().toJson()).append('\n'));
        }
        return jsonl.toString();
    }

    private static BatchOutcome rejected(String code, String message) {
        return new BatchOutcome.Rejected(List.of(new FieldError("page", code, message)));
    }
}
