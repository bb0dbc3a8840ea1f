package io.gpupipe.batch;

import io.gpupipe.adapters.BatchFiles;
import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchRetry;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.batch.ChunkProgress;
import io.gpupipe.model.batch.JsonlReader;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The input of a retry batch: the lines of the batch it retries that {@link BatchRetry#linesToRetry} picks, copied
 * as they were (same {@code custom_id}s and bodies), in input order. Written chunk by chunk (one chunk's lines in
 * memory at a time: at most 16 MiB) and joined into the retry batch's input key. Written again, it is the same file:
 * the old batch has ended, so its records no longer change.
 */
@ApplicationScoped
public class RetryInput {
    private static final Logger LOG = Logger.getLogger(RetryInput.class);

    private final BatchStore store;
    private final BatchFiles files;

    RetryInput(BatchStore store, BatchFiles files) {
        this.store = store;
        this.files = files;
    }

    /** Writes {@code retry}'s input file; nothing when the batch it retries is gone (its plan then finds none). */
    public void write(BatchState retry) {
        Optional<BatchState> read = store.read(retry.retryOf()).map(BatchStore.StoredBatch::state);
        if (read.isEmpty() || read.get().plan() == null) {
            LOG.warnf("retry batch %s: the batch it retries, %s, is gone or has no plan", retry.id(),
                    retry.retryOf());
            return;
        }
        BatchState old = read.get();
        List<String> parts = new ArrayList<>();
        int copied = 0;
        for (ChunkPlan chunk : old.plan().chunks()) {
            Optional<ChunkManifest> manifest = files.readManifest(old.id(), chunk.chunk());
            if (manifest.isEmpty()) {
                throw new IllegalStateException("batch " + old.id() + " ended but chunk " + chunk.chunk()
                        + " has no manifest");
            }
            ChunkProgress progress = ChunkProgress.ofKeys(store.list(BatchLayout.donePrefix(old.id(),
                    chunk.chunk())));
            Set<Integer> lines = new HashSet<>(BatchRetry.linesToRetry(manifest.get(), progress));
            if (lines.isEmpty()) {
                continue;
            }
            String part = BatchLayout.retryPartKey(retry.id(), chunk.chunk());
            files.put(part, copy(old, chunk, lines));
            parts.add(part);
            copied += lines.size();
        }
        long bytes = files.concatenate(retry.inputFileId(), parts);
        LOG.infof("retry batch %s: %d lines (%d bytes) of %s copied to %s", retry.id(), copied, bytes, old.id(),
                retry.inputFileId());
    }

    private byte[] copy(BatchState old, ChunkPlan chunk, Set<Integer> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = files.open(old.inputFileId(), chunk.byteStart(), chunk.byteEnd())) {
            JsonlReader reader = new JsonlReader(in, chunk.firstLine(), chunk.byteStart(),
                    BatchLimits.MAX_LINE_BYTES);
            for (Optional<JsonlReader.Line> next = reader.next(); next.isPresent(); next = reader.next()) {
                if (next.get() instanceof JsonlReader.Line.Text text && lines.contains(text.number())) {
                    out.writeBytes((text.text() + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading chunk " + chunk.chunk() + " of " + old.inputFileId(), e);
        }
        return out.toByteArray();
    }
}
