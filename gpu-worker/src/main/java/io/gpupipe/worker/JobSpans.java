package io.gpupipe.worker;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.model.Tier;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.telemetry.Traces;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import java.time.Instant;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The spans of one delivery: the job span, the queue wait before it, and a child span per step (marker claim,
 * result write; the model call's is {@link InferenceRunner}'s).
 */
final class JobSpans {
    static final String JOB_SPAN = "worker job";
    static final String QUEUE_WAIT_SPAN = "queue wait";
    static final String MARKER_SPAN = "marker claim";
    static final String RESULT_WRITE_SPAN = "result write";

    private final Tracer tracer;

    JobSpans(Tracer tracer) {
        this.tracer = tracer;
    }

    /**
     * The delivery's span ("worker job", kind CONSUMER), whose parent is the message's traceparent (the router's
     * submit span), or the root of a new trace for a message sent straight to the queue without one.
     */
    Span startJob(QueueMessage message, Tier tier) {
        return tracer.spanBuilder(JOB_SPAN).setSpanKind(SpanKind.CONSUMER)
                .setParent(Traces.parent(TraceContext.fromTraceparent(message.traceparent())))
                .setAttribute(SpanAttributes.TIER, tier.wireName())
                .setAttribute(SpanAttributes.RECEIVE_COUNT, (long) message.receiveCount()).startSpan();
    }

    /** {@code step} as a child span of the job's; its outcome attribute is what {@code outcome} makes of the result. */
    <T> T step(String name, Supplier<T> step, Function<T, String> outcome) {
        Span span = tracer.spanBuilder(name).startSpan();
        return Traces.within(span, () -> {
            T result = step.get();
            span.setAttribute(SpanAttributes.OUTCOME, outcome.apply(result));
            return result;
        });
    }

    /** The time the job spent queued, as a span from its submission to now (the job span's start). */
    void queueWait(Instant submittedAt, Instant started) {
        if (submittedAt != null && !submittedAt.isAfter(started)) {
            tracer.spanBuilder(QUEUE_WAIT_SPAN).setStartTimestamp(submittedAt).startSpan().end(started);
        }
    }
}
