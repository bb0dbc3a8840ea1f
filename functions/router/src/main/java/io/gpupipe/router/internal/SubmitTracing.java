package io.gpupipe.router.internal;

import io.gpupipe.jobs.SubmitOutcome;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.telemetry.Traces;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import java.util.function.Function;
import java.util.function.Supplier;

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

    /** Runs {@code submit} inside the span and answers what {@code answer} makes of its outcome. */
    public <R> R traced(String traceparentHeader, Supplier<SubmitOutcome> submit, Function<SubmitOutcome, R> answer) {
        Span span = tracer.spanBuilder(SPAN_NAME).setSpanKind(SpanKind.SERVER)
                .setParent(Traces.parent(TraceContext.fromTraceparent(traceparentHeader))).startSpan();
        try {
            return Traces.within(span, () -> {
                SubmitOutcome outcome = submit.get();
                describe(span, outcome);
                return answer.apply(outcome);
            });
        } finally {
            traces.flush();
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
