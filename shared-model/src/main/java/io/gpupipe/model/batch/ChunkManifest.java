package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What every line of one chunk became, written create-only at {@link BatchLayout#manifestKey} before any of its jobs
 * is submitted: a job (its request id) or an error. The same input always yields the same manifest.
 */
public record ChunkManifest(String batchId, int chunk, int firstLine, List<Entry> entries) {
    public ChunkManifest {
        entries = List.copyOf(entries);
    }

    /** One line: exactly one of {@code requestId} (it became that job) and {@code error}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(int line, String customId, String requestId, LineError error) {
        public Entry {
            if ((requestId == null) == (error == null)) {
                throw new IllegalArgumentException("line " + line + ": exactly one of requestId and error");
            }
        }

        public static Entry of(ParsedLine parsed) {
            if (parsed instanceof ParsedLine.Job job) {
                return new Entry(job.line(), job.customId(), job.job().requestId(), null);
            }
            ParsedLine.Invalid invalid = (ParsedLine.Invalid) parsed;
            return new Entry(invalid.line(), invalid.customId(), null, invalid.error());
        }
    }

    public static ChunkManifest of(String batchId, ChunkPlan plan, List<ParsedLine> lines) {
        return new ChunkManifest(batchId, plan.chunk(), plan.firstLine(), lines.stream().map(Entry::of).toList());
    }

    /** The lines that became jobs. */
    public List<Entry> jobs() {
        return entries.stream().filter(e -> e.requestId() != null).toList();
    }
}
