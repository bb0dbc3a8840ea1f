package io.gpupipe.model.batch;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far a chunk is, from the keys of its done records (one listing): the outcome of each line that has ended. A
 * line has one record in the normal course; should a cancelled line's job still have run (its result is the truth),
 * the outcome with a result wins.
 */
public record ChunkProgress(Map<Integer, LineOutcome> outcomes) {
    public ChunkProgress {
        outcomes = Map.copyOf(outcomes);
    }

    public static ChunkProgress ofKeys(Collection<String> doneKeys) {
        Map<Integer, LineOutcome> outcomes = new TreeMap<>();
        for (String key : doneKeys) {
            BatchLayout.parseDoneKey(key).ifPresent(record -> outcomes.merge(record.line(), record.outcome(),
                    (a, b) -> a.hasResult() ? a : b));
        }
        return new ChunkProgress(outcomes);
    }

    /** True once every one of the chunk's {@code lines} has ended. */
    public boolean isComplete(int lines) {
        return outcomes.size() >= lines;
    }

    public LineCounts counts() {
        return LineCounts.of(outcomes);
    }
}
