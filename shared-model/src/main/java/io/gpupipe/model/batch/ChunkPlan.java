package io.gpupipe.model.batch;

import java.util.List;

/**
 * One chunk of an input file: the byte range {@code [byteStart, byteEnd)} whose first physical line is
 * {@code firstLine}, holding {@code lines} non-blank lines, and those of them whose custom_id an earlier line already
 * used ({@code duplicates}: line and the first line with that id). Read again, the range yields the same lines.
 */
public record ChunkPlan(int chunk, int firstLine, long byteStart, long byteEnd, int lines,
                        List<Duplicate> duplicates) {
    public ChunkPlan {
        duplicates = duplicates == null ? List.of() : List.copyOf(duplicates);
    }

    /** A line repeating the custom_id of {@code firstLine}. */
    public record Duplicate(int line, int firstLine) {
    }
}
