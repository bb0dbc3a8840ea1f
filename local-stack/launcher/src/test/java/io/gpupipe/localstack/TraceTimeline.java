package io.gpupipe.localstack;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the local stack's trace file ({@code --trace-file}: one span per line, written by the telemetry module's
 * TraceFileExporter) and renders one job's trace as a timeline: offset from the trace's first span, duration,
 * component, span name (indented under its parent) and gpupipe attributes.
 */
final class TraceTimeline {
    private TraceTimeline() {
    }

    /** One span of the file. */
    record Span(String traceId, String spanId, String parentSpanId, String name, String service, long startNanos,
                long endNanos, JsonNode attributes) {
    }

    static List<Span> read(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            List<Span> spans = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = JobJson.read(line, JsonNode.class);
                spans.add(new Span(n.path("traceId").asText(), n.path("spanId").asText(),
                        n.path("parentSpanId").asText(null), n.path("name").asText(), n.path("service").asText(),
                        Long.parseLong(n.path("startTimeUnixNano").asText()),
                        Long.parseLong(n.path("endTimeUnixNano").asText()), n.path("attributes")));
            }
            return spans;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The spans of the trace a span naming {@code requestId} belongs to, by start time. */
    static List<Span> ofJob(List<Span> spans, String requestId) {
        Optional<String> traceId = spans.stream()
                .filter(s -> requestId.equals(s.attributes().path("gpupipe.request_id").asText(null)))
                .map(Span::traceId).findFirst();
        return traceId.map(id -> spans.stream().filter(s -> s.traceId().equals(id))
                .sorted(Comparator.comparingLong(Span::startNanos)).toList()).orElse(List.of());
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
                    (span.endNanos() - span.startNanos()) / 1e6, span.service(), "  ".repeat(depth(trace, span)),
                    span.name(), attributes));
        }
        return out.toString();
    }

    private static int depth(List<Span> trace, Span span) {
        int depth = 0;
        String parent = span.parentSpanId();
        while (parent != null && depth < 10) {
            String id = parent;
            Optional<Span> up = trace.stream().filter(s -> s.spanId().equals(id)).findFirst();
            if (up.isEmpty()) {
                break;
            }
            depth++;
            parent = up.get().parentSpanId();
        }
        return depth;
    }
}
