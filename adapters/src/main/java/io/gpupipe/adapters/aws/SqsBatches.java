package io.gpupipe.adapters.aws;

import io.gpupipe.model.consumption.CallBatching;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * How items are grouped into SQS batch calls (SendMessageBatch, DeleteMessageBatch, ChangeMessageVisibilityBatch):
 * at most 10 entries per call (TooManyEntriesInBatchRequest), and for sends the entries' sizes summed within the
 * queue's message size ("The maximum allowed individual message size and the maximum total payload size (the sum of
 * the individual lengths of all of the batched messages) are both 256 KiB", SendMessageBatch, Amazon SQS API
 * Reference).
 */
final class SqsBatches {
    static final int MAX_ENTRIES = CallBatching.MAX_MESSAGES;

    private SqsBatches() {
    }

    /** {@code items} in order, in groups of at most 10. */
    static <T> List<List<T>> groups(List<T> items) {
        return groups(items, item -> 0, Integer.MAX_VALUE);
    }

    /**
     * {@code items} in order, in groups of at most 10 whose {@code bytes} sum to at most {@code maxBytes} (an item
     * larger than that on its own still gets a group: SQS answers for it).
     */
    static <T> List<List<T>> groups(List<T> items, ToIntFunction<T> bytes, int maxBytes) {
        List<List<T>> groups = new ArrayList<>();
        List<T> group = new ArrayList<>();
        long groupBytes = 0;
        for (T item : items) {
            int size = bytes.applyAsInt(item);
            if (group.size() == MAX_ENTRIES || (!group.isEmpty() && groupBytes + size > maxBytes)) {
                groups.add(group);
                group = new ArrayList<>();
                groupBytes = 0;
            }
            group.add(item);
            groupBytes += size;
        }
        if (!group.isEmpty()) {
            groups.add(group);
        }
        return groups;
    }
}
