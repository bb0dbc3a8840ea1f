package io.gpupipe.localstack;

import io.gpupipe.localstack.console.TraceSpans;
import io.gpupipe.localstack.console.TraceSpans.Span;
import java.util.List;
import java.util.Locale;

/**
 * Renders one job's trace (read by the console's {@link TraceSpans}) as a text timeline: offset from the trace's
 * first span, duration, component, span name (indented under its parent) and gpupipe attributes.
 */
final class TraceTimeline {
    private TraceTimeline() {
    }

    static String render(List<Span> trace) {
        if (trace.isEmpty()) {
            return "(no spans)";
        }
        long t0 = trace.get(0).startNanos();
        StringBuilder out = new StringBuilder("trace " + trace.get(0).traceId() + "\n");
        out.append(String.format(Locale.ROOT, "%10s %10s  %-16s %s%n", "start ms", "took ms", "service", "span"));
        for (Span span : trace) {
            StringBuilder attributes = new StringBuilder();
            span.attributes().fields().forEachRemaining(e -> {
                if (!e.getKey().equals("gpupipe.request_id")) {
                    attributes.append(' ').append(e.getKey().replace("gpupipe.", "")).append('=')
                            .append(e.getValue().asText());
                }
            });
            out.append(String.format(Locale.ROOT, "%10.1f %10.1f  %-16s %s%s%s%n", (span.startNanos() - t0) / 1e6,
                    (span.endNanos() - span.startNanos()) / 1e6, span.service(),
                    "  ".repeat(TraceSpans.depth(trace, span)), span.name(), attributes));
        }
        return out.toString();
    }
}
