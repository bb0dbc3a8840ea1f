package io.gpupipe.adapters;

import java.time.Duration;
import java.util.Optional;

/** What the tier queue itself says: its visibility timeout and, when it has a redrive policy, the DLQ and limit. */
public record QueueAttributes(Duration visibilityTimeout, Optional<Integer> maxReceiveCount,
                              Optional<String> deadLetterQueueUrl) {
}
