package io.gpupipe.model;

/** Names of the SQS message attributes gpupipe sets and reads. */
public final class MessageAttributes {
    /** Set by the router: the tier the job was routed to. */
    public static final String TIER = "tier";
    /** Set by the router: {@code generate} or {@code speech}. */
    public static final String TASK = "task";
    /** Set by the router when the job has a priority. */
    public static final String PRIORITY = "priority";
    /** Set by the worker on DLQ messages it moves itself: why the message was rejected. */
    public static final String ERROR_REASON = "ErrorReason";
    /** Set by the worker on DLQ messages it moves itself: the queue the message came from. */
    public static final String ORIGINAL_QUEUE = "OriginalQueue";

    private MessageAttributes() {
    }
}
