package io.gpupipe.model.batch;

import java.util.List;

/** How an input file is cut into chunks: its non-blank line count and each chunk's range. */
public record BatchPlan(int lines, List<ChunkPlan> chunks) {
    public BatchPlan {
        chunks = List.copyOf(chunks);
    }

    public ChunkPlan chunk(int chunk) {
        if (chunk < 0 || chunk >= chunks.size()) {
            throw new IllegalArgumentException("no chunk " + chunk + " in a plan of " + chunks.size());
        }
        return chunks.get(chunk);
    }
}
