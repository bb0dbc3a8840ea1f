package io.gpupipe.scaling;

/** SQS approximate counts: visible, in flight (received, not deleted) and delayed messages. */
public record QueueDepth(long visible, long inFlight, long delayed) {
}
