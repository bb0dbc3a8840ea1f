package io.gpupipe.notifier.domain;

import java.util.Objects;

/**
 * What the result notifier did with one S3 event record. A record is {@link Notified} once the SNS event is
 * published (its callback may still have failed: SNS is the durable channel, the callback is best effort with
 * bounded retries), {@link Skipped} when there is nothing to notify and retrying cannot help (not a result key,
 * object missing, not JSON, not a valid result), or {@link Failed} when reading or publishing failed;
 * {@code retryable} failures (AWS errors) may succeed if the invocation is retried.
 */
public sealed interface RecordOutcome {
    /** The S3 key of the record, decoded. */
    String key();

    /** The SNS event was published. */
    record Notified(String key, String requestId, String status, String messageId, CallbackDelivery callback)
            implements RecordOutcome {
        public Notified {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(callback, "callback");
        }
    }

    /** Nothing to notify; retrying would not change that. */
    record Skipped(String key, String reason) implements RecordOutcome {
        public Skipped {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Reading the result or publishing the event failed. */
    record Failed(String key, String reason, boolean retryable) implements RecordOutcome {
        public Failed {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
