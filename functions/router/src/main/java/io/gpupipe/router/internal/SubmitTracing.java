package io.gpupipe.router.internal;

import io.gpupipe.jobs.SubmitOutcome;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.telemetry.Traces;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;

/**
 * The router's span of one submission ("router submit", kind SERVER): child of the client's {@code traceparent}
 * header when it sends one, else the root of the job's trace. It is current while the job is routed and enqueued,
 * so the SQS message carries it (SqsJobQueue) and every log line names its trace (Quarkus puts traceId in the MDC);
 * it ends and is flushed before the handler returns.
 */
public final class SubmitTracing {
    public static final String SPAN_NAME = "router submit";
    private final Tracer tracer;
    private final Traces traces;

    public SubmitTracing(Tracer tracer, Traces traces) {
        this.tracer = tracer;
        this.traces = traces;
    }

    /**
     * Starts the span of one submission and makes it current; the caller ends it in a {@code finally} once the
     * answer is made (not with try-with-resources, which would end it before a {@code catch} could record a failure).
     */
    public SubmitSpan start(String traceparentHeader) {
        Span span = tracer.spanBuilder(SPAN_NAME).setSpanKind(SpanKind.SERVER)
                .setParent(Traces.parent(TraceContext.fromTraceparent(traceparentHeader))).startSpan();
        return new SubmitSpan(span, span.makeCurrent());
    }

    /** One submission's span, current from {@link SubmitTracing#start} until {@link #end}. */
    public final class SubmitSpan {
        private final Span span;
        private final Scope scope;

        private SubmitSpan(Span span, Scope scope) {
            this.span = span;
            this.scope = scope;
        }

        /** Names the submission's outcome on the span (request id, tier, outcome) and gives it back. */
        public SubmitOutcome describe(SubmitOutcome outcome) {
            SubmitTracing.describe(span, outcome);
            return outcome;
        }

        /** Marks the span failed by {@code e}, which the caller rethrows. */
        public void failed(RuntimeException e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
        }

        /** Ends the span (no longer current) and flushes it before the handler returns. */
        public void end() {
            try {
                scope.close();
                span.end();
            } finally {
                traces.flush();
            }
        }
    }

    private static void describe(Span span, SubmitOutcome outcome) {
        if (outcome instanceof SubmitOutcome.Accepted accepted) {
            span.setAttribute(SpanAttributes.REQUEST_ID, accepted.job().requestId());
            span.setAttribute(SpanAttributes.TIER, accepted.decision().tier().wireName());
            span.setAttribute(SpanAttributes.OUTCOME, "accepted");
        } else if (outcome instanceof SubmitOutcome.Duplicate duplicate) {
            span.setAttribute(SpanAttributes.REQUEST_ID, duplicate.view().requestId());
            span.setAttribute(SpanAttributes.OUTCOME, "duplicate");
        } else if (outcome instanceof SubmitOutcome.Rejected rejected) {
            rejected.requestId().ifPresent(id -> span.setAttribute(SpanAttributes.REQUEST_ID, id));
            span.setAttribute(SpanAttributes.OUTCOME, "rejected");
        } else if (outcome instanceof SubmitOutcome.Unavailable unavailable) {
            span.setAttribute(SpanAttributes.REQUEST_ID, unavailable.requestId());
            span.setAttribute(SpanAttributes.OUTCOME, "unavailable");
            span.setStatus(StatusCode.ERROR, unavailable.message());
        }
    }
}
