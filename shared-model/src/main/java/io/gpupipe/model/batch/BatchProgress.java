package io.gpupipe.model.batch;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * A running batch's progress from what the listings show: the ended chunks with their counts (one listing of
 * {@link BatchLayout#endedPrefix}, the counts are in the keys) and, for each chunk still running, its done records.
 * The cost of reading it is bounded by the chunk count, never by the line count.
 */
public record BatchProgress(Map<Integer, LineCounts> ended) {
    public BatchProgress {
        ended = Map.copyOf(ended);
    }

    public static BatchProgress ofEndedKeys(Collection<String> endedKeys) {
        Map<Integer, LineCounts> ended = new TreeMap<>();
        for (String key : endedKeys) {
            BatchLayout.parseEndedKey(key).ifPresent(chunk -> ended.put(chunk.chunk(), chunk.counts()));
        }
        return new BatchProgress(ended);
    }

    /** True once every chunk of {@code plan} has ended. */
    public boolean allEnded(BatchPlan plan) {
        return plan != null && running(plan).isEmpty();
    }

    /** The chunks of {@code plan} that have not ended. */
    public List<Integer> running(BatchPlan plan) {
        return IntStream.range(0, plan.chunks().size()).filter(c -> !ended.containsKey(c)).boxed().toList();
    }

    /** Every line's outcome so far: the ended chunks' counts plus the running chunks' done records. */
    public LineCounts counts(Map<Integer, ChunkProgress> running) {
        LineCounts counts = ended.values().stream().reduce(LineCounts.ZERO, LineCounts::plus);
        for (ChunkProgress progress : running.values()) {
            counts = counts.plus(progress.counts());
        }
        return counts;
    }

    /** The status to show for a stored, not yet terminal batch: finalizing once every chunk ended. */
    public BatchStatus shownStatus(BatchState state) {
        if (state.status() == BatchStatus.IN_PROGRESS && allEnded(state.plan())) {
            return BatchStatus.FINALIZING;
        }
        return state.status();
    }
}
