package io.gpupipe.notifier.domain;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.batch.BatchState;
import java.io.UncheckedIOException;

/** Reads a batch's terminal record ({@code batches/{id}/final.json}), written once by its finalizer. */
public final class BatchRecord {

    /** A terminal record read from S3: usable, or why not. */
    public sealed interface Parsed {
        record Usable(BatchState terminal) implements Parsed {
        }

        record Unusable(String reason) implements Parsed {
        }
    }

    private BatchRecord() {
    }

    /** Parses the object's text as the terminal record of batch {@code batchId}. */
    public static Parsed parse(String body, String batchId) {
        BatchState terminal;
        try {
            terminal = JobJson.read(body, BatchState.class);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return new Parsed.Unusable("object is not a batch record: " + e.getMessage());
        }
        if (terminal == null || !terminal.id().equals(batchId) || !terminal.status().isTerminal()) {
            return new Parsed.Unusable("not the terminal record of batch " + batchId);
        }
        return new Parsed.Usable(terminal);
    }
}
