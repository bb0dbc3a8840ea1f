package io.gpupipe.telemetry;

import io.gpupipe.model.observability.TraceContext;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Between gpupipe's wire formats (shared-model {@link TraceContext}) and OpenTelemetry's context, and the flush a
 * Lambda invocation ends with: Lambda freezes the execution environment as soon as the handler returns, so spans
 * still queued in the batch processor would leave only with the next invocation, or never (OpenTelemetry Lambda
 * design: "the SDK side needs to call force_flush() at the end of Lambda instrumentation"; quarkusio/quarkus#26250).
 */
@Singleton
public class Traces {
    private static final Logger LOG = Logger.getLogger(Traces.class);
    private final ExportingSpanProcessor processor;
    private final Duration flushTimeout;

    Traces(ExportingSpanProcessor processor, TracingConfig config) {
        this.processor = processor;
        this.flushTimeout = config.flushTimeout();
    }

    /** Exports every finished span now, waiting at most the flush timeout; never throws. */
    public void flush() {
        try {
            if (!processor.forceFlush().join(flushTimeout.toMillis(), TimeUnit.MILLISECONDS).isSuccess()) {
                LOG.warnf("spans not exported within %d ms; they may be lost", flushTimeout.toMillis());
            }
        } catch (RuntimeException e) {
            LOG.warnf("could not flush spans: %s", e.toString());
        }
    }

    /**
     * Runs {@code work} with {@code span} current; a runtime exception is recorded on the span (status ERROR) and
     * propagates; the span always ends.
     */
    public static <T> T within(Span span, Supplier<T> work) {
        try (Scope ignored = span.makeCurrent()) {
            return work.get();
        } catch (RuntimeException e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
        }
    }

    /** The wire form of {@code span}, empty when it is not valid (tracing off). */
    public static Optional<TraceContext> of(Span span) {
        SpanContext context = span.getSpanContext();
        if (!context.isValid()) {
            return Optional.empty();
        }
        return Optional.of(new TraceContext(context.getTraceId(), context.getSpanId(), context.isSampled()));
    }

    /** A context whose parent is the remote span {@code trace} names, or the root context when there is none. */
    public static Context parent(Optional<TraceContext> trace) {
        return trace.map(t -> Context.root().with(Span.wrap(SpanContext.createFromRemoteParent(t.traceId(),
                t.spanId(), t.sampled() ? TraceFlags.getSampled() : TraceFlags.getDefault(),
                TraceState.getDefault())))).orElse(Context.root());
    }
}
