package io.gpupipe.notifier.domain;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * The result notifier's answer for one S3 event (the Lambda response, also logged). S3 invokes Lambda
 * asynchronously and has no batch-item-failure protocol: a thrown error makes Lambda retry the whole event (twice,
 * then the on-failure destination). So the notifier throws only when {@link #shouldFailInvocation()}: every record
 * failed and each failure is retryable, so a retry re-sends nothing that already went out. With any success or
 * skip in the batch it returns this report instead, listing each failed record, and never re-notifies the others.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchReport(int records, int notified, int skipped, int failed, List<Item> items) {

    /** One record's line in the report. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Item(String key, String outcome, String requestId, String reason, Boolean retryable,
                       String callback, String messageId) {
    }

    public BatchReport {
        items = List.copyOf(items);
    }

    /** Summarises the outcomes, in record order. */
    public static BatchReport of(List<RecordOutcome> outcomes) {
        int notified = 0;
        int skipped = 0;
        int failed = 0;
        List<Item> items = new ArrayList<>();
        for (RecordOutcome outcome : outcomes) {
            if (outcome instanceof RecordOutcome.Notified) {
                RecordOutcome.Notified n = (RecordOutcome.Notified) outcome;
                notified++;
                items.add(new Item(n.key(), "notified", n.requestId(), n.callback().detail(), null,
                        n.callback().status().name(), n.messageId()));
            } else if (outcome instanceof RecordOutcome.Skipped) {
                RecordOutcome.Skipped s = (RecordOutcome.Skipped) outcome;
                skipped++;
                items.add(new Item(s.key(), "skipped", null, s.reason(), null, null, null));
            } else {
                RecordOutcome.Failed f = (RecordOutcome.Failed) outcome;
                failed++;
                items.add(new Item(f.key(), "failed", null, f.reason(), f.retryable(), null, null));
            }
        }
        return new BatchReport(outcomes.size(), notified, skipped, failed, items);
    }

    /** True when the whole invocation should fail so that Lambda retries it: all records failed retryably. */
    @JsonIgnore
    public boolean shouldFailInvocation() {
        return records > 0 && failed == records && items.stream().allMatch(i -> Boolean.TRUE.equals(i.retryable()));
    }
}
