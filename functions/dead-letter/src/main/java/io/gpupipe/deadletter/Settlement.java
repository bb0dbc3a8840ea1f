package io.gpupipe.deadletter;

/** What became of one DLQ message: deleted by the event source mapping, or kept on the queue. */
public enum Settlement {
    /** A failed/dead_lettered result was written: the notifier tells the client. */
    RESULT_WRITTEN(true),
    /** The job already had a result (the create-only write found one): nothing to add. */
    RESULT_EXISTS(true),
    /** The job was cancelled before any worker ran it: cancelled is its terminal state. */
    CANCELLED(true),
    /**
     * Its id is held by another owner's job or another request (a producer's message the worker refused): no result,
     * since that id's result is its holder's to write.
     */
    HELD_BY_ANOTHER(true),
    /** No readable requestId: logged with the body's SHA-256 and kept for an operator. */
    UNREADABLE(false),
    /** S3 failed: kept, and retried when the message is visible again. */
    RETRY(false);

    private final boolean deletable;

    Settlement(boolean deletable) {
        this.deletable = deletable;
    }

    /** True when the message may leave the DLQ. */
    public boolean deletable() {
        return deletable;
    }
}
