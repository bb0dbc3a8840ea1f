package io.gpupipe.localstack.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Reads the local stack's trace file ({@code --trace-file}: one span per line, written by the telemetry module's
 * TraceFileExporter): every span, or one trace's spans by start time.
 */
public final class TraceSpans {
    private static final String REQUEST_ID = "gpupipe.request_id";

    private TraceSpans() {
    }

    /** One span of the file. */
    public record Span(String traceId, String spanId, String parentSpanId, String name, String service,
                       long startNanos, long endNanos, JsonNode attributes) {
    }

    /** Every span of the file (none when it does not exist yet). */
    public static List<Span> read(Path file) {
        return read(file, line -> true);
    }

    /**
     * The spans of trace {@code traceId}, by start time. Only lines naming the id are parsed, so that a page opening
     * one job does not parse a whole benchmark's spans.
     */
    public static List<Span> ofTrace(Path file, String traceId) {
        List<Span> spans = new ArrayList<>(read(file, line -> line.contains(traceId)));
        spans.removeIf(s -> !s.traceId().equals(traceId));
        spans.sort(Comparator.comparingLong(Span::startNanos));
        return spans;
    }

    /** The spans of the trace a span naming {@code requestId} belongs to, by start time. */
    public static List<Span> ofJob(List<Span> spans, String requestId) {
        Optional<String> traceId = spans.stream()
                .filter(s -> requestId.equals(s.attributes().path(REQUEST_ID).asText(null)))
                .map(Span::traceId).findFirst();
        return traceId.map(id -> spans.stream().filter(s -> s.traceId().equals(id))
                .sorted(Comparator.comparingLong(Span::startNanos)).toList()).orElse(List.of());
    }

    /** How many ancestors of {@code span} the trace holds (its indentation in a timeline). */
    public static int depth(List<Span> trace, Span span) {
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

    private static List<Span> read(Path file, Predicate<String> wanted) {
        List<Span> spans = new ArrayList<>();
        try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (!line.isBlank() && wanted.test(line)) {
                    span(line).ifPresent(spans::add);
                }
            }
            return spans;
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The span of a line; empty for a line still being appended by another process. */
    private static Optional<Span> span(String line) {
        try {
            return Optional.of(span(JobJson.read(line, JsonNode.class)));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Span span(JsonNode n) {
        return new Span(n.path("traceId").asText(), n.path("spanId").asText(), n.path("parentSpanId").asText(null),
                n.path("name").asText(), n.path("service").asText(),
                Long.parseLong(n.path("startTimeUnixNano").asText()),
                Long.parseLong(n.path("endTimeUnixNano").asText()), n.path("attributes"));
    }
}
