package io.gpupipe.model.batch;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.JobJson;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Cuts an input file into chunks in one streaming pass: a chunk closes at {@link BatchLimits#MAX_CHUNK_LINES} lines
 * or {@link BatchLimits#MAX_CHUNK_BYTES} bytes. Notes each line whose custom_id an earlier line used (OpenAI: unique
 * within a batch), so its chunk reports it as an error line. Refuses, as OpenAI does while validating, a file that
 * is too large, holds no line or too many.
 */
public final class BatchPlanner {

    /** The plan, or why the file cannot be a batch. */
    public sealed interface Outcome {
        record Planned(BatchPlan plan) implements Outcome {
        }

        record Refused(BatchError error) implements Outcome {
        }
    }

    private final int maxLines;
    private final int maxChunkLines;
    private final long maxChunkBytes;

    public BatchPlanner() {
        this(BatchLimits.MAX_LINES, BatchLimits.MAX_CHUNK_LINES, BatchLimits.MAX_CHUNK_BYTES);
    }

    /** A planner with other limits (tests cut small files into several chunks). */
    public BatchPlanner(int maxLines, int maxChunkLines, long maxChunkBytes) {
        this.maxLines = maxLines;
        this.maxChunkLines = maxChunkLines;
        this.maxChunkBytes = maxChunkBytes;
    }

    /** Refuses a file whose size is over the limit before reading it. */
    public static Optional<BatchError> checkSize(long bytes) {
        if (bytes > BatchLimits.MAX_FILE_BYTES) {
            return Optional.of(BatchError.of("file_too_large", "the input file has " + bytes + " bytes; at most "
                    + BatchLimits.MAX_FILE_BYTES + " are allowed"));
        }
        return Optional.empty();
    }

    public Outcome plan(InputStream in) throws IOException {
        JsonlReader reader = new JsonlReader(in, 1, 0, BatchLimits.MAX_LINE_BYTES);
        List<ChunkPlan> chunks = new ArrayList<>();
        Map<String, Integer> firstLineOfId = new HashMap<>();
        List<ChunkPlan.Duplicate> duplicates = new ArrayList<>();
        int lines = 0;
        int chunkLines = 0;
        int chunkFirstLine = 1;
        long chunkStart = 0;
        for (Optional<JsonlReader.Line> next = reader.next(); next.isPresent(); next = reader.next()) {
            JsonlReader.Line line = next.get();
            if (++lines > maxLines) {
                return new Outcome.Refused(new BatchError("too_many_lines", "the input file has more than "
                        + maxLines + " lines", null, line.number()));
            }
            customId(line).ifPresent(id -> {
                Integer first = firstLineOfId.putIfAbsent(id, line.number());
                if (first != null) {
                    duplicates.add(new ChunkPlan.Duplicate(line.number(), first));
                }
            });
            chunkLines++;
            if (chunkLines == maxChunkLines || line.end() - chunkStart >= maxChunkBytes) {
                chunks.add(new ChunkPlan(chunks.size(), chunkFirstLine, chunkStart, line.end(), chunkLines,
                        duplicates));
                duplicates.clear();
                chunkLines = 0;
                chunkFirstLine = line.number() + 1;
                chunkStart = line.end();
            }
        }
        if (chunkLines > 0) {
            chunks.add(new ChunkPlan(chunks.size(), chunkFirstLine, chunkStart, reader.offset(), chunkLines,
                    duplicates));
        }
        if (lines == 0) {
            return new Outcome.Refused(BatchError.of("empty_file", "the input file holds no line"));
        }
        return new Outcome.Planned(new BatchPlan(lines, chunks));
    }

    private static Optional<String> customId(JsonlReader.Line line) {
        if (!(line instanceof JsonlReader.Line.Text text)) {
            return Optional.empty();
        }
        try {
            JsonNode id = JobJson.mapper().readTree(text.text()).path(BatchLineParser.CUSTOM_ID);
            return id.isTextual() ? Optional.of(id.textValue()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
