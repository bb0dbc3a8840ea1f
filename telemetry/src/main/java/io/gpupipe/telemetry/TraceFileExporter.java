package io.gpupipe.telemetry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import org.jboss.logging.Logger;

/**
 * Appends each span as one JSON line to a file that several processes share (the local stack's router, workers and
 * notifier): field names as in OTLP JSON ({@code traceId}, {@code spanId}, {@code parentSpanId}, {@code name},
 * {@code kind}, {@code startTimeUnixNano}, {@code endTimeUnixNano}, {@code attributes}, {@code status}) plus
 * {@code service}, one span per line so that {@code jq} can sort a trace. Each batch is written under an exclusive
 * file lock, so lines of different processes never interleave.
 */
public final class TraceFileExporter implements SpanExporter {
    private static final Logger LOG = Logger.getLogger(TraceFileExporter.class);
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    private final Path file;

    public TraceFileExporter(Path file) {
        this.file = file;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        StringBuilder lines = new StringBuilder();
        spans.forEach(span -> lines.append(line(span)).append('\n'));
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND); FileLock lock = channel.lock()) {
                ByteBuffer bytes = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            }
            return CompletableResultCode.ofSuccess();
        } catch (IOException e) {
            LOG.warnf("could not write %d span(s) to %s: %s", spans.size(), file, e.getMessage());
            return CompletableResultCode.ofFailure();
        }
    }

    /** One span as its JSON line. */
    static String line(SpanData span) {
        ObjectNode line = JobJson.mapper().createObjectNode();
        line.put("traceId", span.getTraceId());
        line.put("spanId", span.getSpanId());
        if (span.getParentSpanContext().isValid()) {
            line.put("parentSpanId", span.getParentSpanId());
        }
        line.put("name", span.getName());
        line.put("kind", span.getKind().name());
        line.put("service", span.getResource().getAttribute(SERVICE_NAME));
        line.put("startTimeUnixNano", Long.toString(span.getStartEpochNanos()));
        line.put("endTimeUnixNano", Long.toString(span.getEndEpochNanos()));
        ObjectNode attributes = line.putObject("attributes");
        span.getAttributes().forEach((key, value) -> attributes.set(key.getKey(), JobJson.mapper().valueToTree(value)));
        line.putObject("status").put("code", span.getStatus().getStatusCode().name())
                .put("message", span.getStatus().getDescription());
        return line.toString();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
