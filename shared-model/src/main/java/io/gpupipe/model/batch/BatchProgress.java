package io.gpupipe.model.batch;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * A running batch's progress from two listings, whatever its size: the ended chunks' counts ({@link
 * BatchLayout#endedPrefix}) and the running chunks' counts so far ({@link BatchLayout#progressPrefix}); the counts
 * are in the keys. Of a running chunk's progress records (an older one may linger until the newer one's writer
 * deletes it), the one with the most ended lines counts.
 */
public record BatchProgress(Map<Integer, LineCounts> ended, Map<Integer, LineCounts> running) {
    public BatchProgress {
        ended = Map.copyOf(ended);
        running = Map.copyOf(running);
    }

    public static BatchProgress ofKeys(Collection<String> endedKeys, Collection<String> progressKeys) {
        Map<Integer, LineCounts> ended = new TreeMap<>();
        for (String key : endedKeys) {
            BatchLayout.parseCountsKey(key).ifPresent(chunk -> ended.put(chunk.chunk(), chunk.counts()));
        }
        Map<Integer, LineCounts> running = new TreeMap<>();
        for (String key : progressKeys) {
            BatchLayout.parseCountsKey(key).filter(chunk -> !ended.containsKey(chunk.chunk()))
                    .ifPresent(chunk -> running.merge(chunk.chunk(), chunk.counts(),
                            (a, b) -> a.ended() >= b.ended() ? a : b));
        }
        return new BatchProgress(ended, running);
    }

    /** True once every chunk of {@code plan} has ended. */
    public boolean allEnded(BatchPlan plan) {
        return plan != null && running(plan).isEmpty();
    }

    /** The chunks of {@code plan} that have not ended. */
    public List<Integer> running(BatchPlan plan) {
        return IntStream.range(0, plan.chunks().size()).filter(c -> !ended.containsKey(c)).boxed().toList();
    }

    /** Every line's outcome so far: the ended chunks' counts plus the running chunks' counts so far. */
    public LineCounts counts() {
        LineCounts counts = ended.values().stream().reduce(LineCounts.ZERO, LineCounts::plus);
        return running.values().stream().reduce(counts, LineCounts::plus);
    }

    /** The ended chunks' counts alone (a finished batch's are all there). */
    public LineCounts endedCounts() {
        return ended.values().stream().reduce(LineCounts.ZERO, LineCounts::plus);
    }

    /** The status to show for a stored, not yet terminal batch: finalizing once every chunk ended. */
    public BatchStatus shownStatus(BatchState state) {
        if (state.status() == BatchStatus.IN_PROGRESS && allEnded(state.plan())) {
            return BatchStatus.FINALIZING;
        }
        return state.status();
    }
}
