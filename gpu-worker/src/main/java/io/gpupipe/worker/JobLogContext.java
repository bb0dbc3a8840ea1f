package io.gpupipe.worker;

import io.gpupipe.model.observability.LogFields;
import io.gpupipe.telemetry.Traces;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.function.Supplier;
import org.jboss.logging.MDC;

/**
 * The MDC entries every log line of a job carries while it is processed: the tier, the job's trace and, once read,
 * its requestId, so that one Logs Insights query finds every line of a job.
 */
final class JobLogContext {

    private JobLogContext() {
    }

    static void enter(String tier, Span job) {
        MDC.put(LogFields.TIER, tier);
        Traces.of(job).ifPresent(trace -> MDC.put(LogFields.TRACE_ID, trace.traceId()));
    }

    static void requestId(String requestId) {
        MDC.put(LogFields.REQUEST_ID, requestId);
    }

    static void clear() {
        MDC.remove(LogFields.REQUEST_ID);
        MDC.remove(LogFields.TIER);
        MDC.remove(LogFields.TRACE_ID);
    }

    /**
     * {@code task} run on another thread with this thread's job log context: a pool thread keeps (and its children
     * inherit) whatever MDC it last had, which would name another job (JobLogContextTest reproduced it).
     */
    static <T> Supplier<T> carriedTo(Supplier<T> task) {
        Object requestId = MDC.get(LogFields.REQUEST_ID);
        Object tier = MDC.get(LogFields.TIER);
        Object traceId = MDC.get(LogFields.TRACE_ID);
        Context trace = Context.current();
        return () -> {
            if (requestId != null && tier != null) {
                MDC.put(LogFields.REQUEST_ID, requestId);
                MDC.put(LogFields.TIER, tier);
            }
            if (traceId != null) {
                MDC.put(LogFields.TRACE_ID, traceId);
            }
            try (Scope ignored = trace.makeCurrent()) {
                return task.get();
            } finally {
                clear();
            }
        };
    }
}
