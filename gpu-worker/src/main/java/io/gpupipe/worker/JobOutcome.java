package io.gpupipe.worker;

import java.util.Locale;

/** How one delivery of a message ended, as logged and counted. */
public enum JobOutcome {
    /** Inference ran and this delivery wrote the result. */
    SUCCEEDED,
    /** A {@code failed} result was written (model failure, permanent or on the last attempt). */
    FAILED,
    /** Its TTL ran out before a worker started it: {@code failed}/{@code expired}. */
    EXPIRED,
    /** Malformed: moved to the DLQ (with a {@code failed} result when it carried a requestId). */
    INVALID,
    /** The client cancelled it: deleted without inference. */
    CANCELLED,
    /** Another delivery already produced the result: deleted without writing. */
    DUPLICATE,
    /** A transient failure: returned to the queue for another attempt. */
    REQUEUED,
    /** Given back to the queue unfinished because the worker is shutting down. */
    RELEASED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
