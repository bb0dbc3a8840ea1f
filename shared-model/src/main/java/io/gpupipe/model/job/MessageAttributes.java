package io.gpupipe.model.job;

import io.gpupipe.model.observability.TraceContext;

/** Names of the SQS message attributes gpupipe sets and reads. */
public final class MessageAttributes {
    /** Set by the router: the tier the job was routed to. */
    public static final String TIER = "tier";
    /** Set by the router: {@code generate} or {@code speech}. */
    public static final String TASK = "task";
    /** Set by the router when the job has a priority. */
    public static final String PRIORITY = "priority";
    /**
     * Set by the router and the batch function: the message's seal ({@link io.gpupipe.model.seal.MessageSeal}), the
     * proof that they sent it; the worker copies it onto a message it moves to the DLQ.
     */
    public static final String SEAL = "gpupipe-seal";
    /** Set by the worker on DLQ messages it moves itself: why the message was rejected. */
    public static final String ERROR_REASON = "ErrorReason";
    /** Set by the worker on DLQ messages it moves itself: the queue the message came from. */
    public static final String ORIGINAL_QUEUE = "OriginalQueue";
    /** Set by the router: the W3C trace context of its submit span, so the worker continues the job's trace. */
    public static final String TRACEPARENT = TraceContext.TRACEPARENT;
    /**
     * The SQS message system attribute (not a message attribute) carrying the X-Ray trace header, set by the router
     * from the same ids as {@link #TRACEPARENT} so that X-Ray links the queue hop (X-Ray developer guide, "Amazon SQS
     * and AWS X-Ray": a reserved system attribute, excluded from the message size and attribute quotas).
     */
    public static final String AWS_TRACE_HEADER = "AWSTraceHeader";

    private MessageAttributes() {
    }
}
