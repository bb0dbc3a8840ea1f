package io.gpupipe.model.job;

import io.gpupipe.model.BatchIds;
import io.gpupipe.model.BatchLimits;

/**
 * Which batch line a job is: carried by the job ({@code InferenceJob.batch}), its marker and its result, so that the
 * notifier can record the line as ended without any lookup. {@code chunkLines} is how many lines the job's chunk
 * has: the chunk has ended once that many lines have a done record ({@code io.gpupipe.model.batch.ChunkProgress}).
 */
public record BatchMember(String batchId, int chunk, int line, int chunkLines) {
    public BatchMember {
        if (!BatchIds.isValidBatchId(batchId)) {
            throw new IllegalArgumentException("batchId must be batch_<uuid>, got " + batchId);
        }
        if (chunk < 0 || line < 1 || chunkLines < 1 || chunkLines > BatchLimits.MAX_CHUNK_LINES) {
            throw new IllegalArgumentException("chunk >= 0, line >= 1, chunkLines 1.." + BatchLimits.MAX_CHUNK_LINES
                    + " required, got " + chunk + "/" + line + "/" + chunkLines);
        }
    }

    /** The request id of this line's job: derived from batch and line, so a redelivered chunk names the same job. */
    public String requestId() {
        return BatchIds.jobId(batchId, line);
    }
}
