package io.gpupipe.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.observability.TraceContext;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpanExportersTest {

    @Test
    void otlp_shouldPostProtobufSpansToTheEndpoint() throws IOException {
        // OTLP/HTTP (OTLP specification, "OTLP/HTTP"): POST {endpoint} with Content-Type application/x-protobuf
        List<String> contentTypes = new CopyOnWriteArrayList<>();
        List<byte[]> bodies = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/v1/traces", exchange -> {
            contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
            bodies.add(exchange.getRequestBody().readAllBytes());
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        try {
            URI endpoint = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/v1/traces");
            SpanExporter exporter = SpanExporters.of(config(TracingConfig.Exporter.OTLP, endpoint, null));
            String traceId;
            try (SdkTracerProvider provider = SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()) {
                Span span = provider.get("test").spanBuilder("router submit").startSpan();
                traceId = span.getSpanContext().getTraceId();
                span.end();
                assertThat(provider.forceFlush().join(10, TimeUnit.SECONDS).isSuccess()).isTrue();
            }
            assertThat(contentTypes).containsExactly("application/x-protobuf");
            // the protobuf carries the trace id as its 16 raw bytes and the span name as UTF-8
            String body = HexFormat.of().formatHex(bodies.get(0));
            assertThat(body).contains(traceId)
                    .contains(HexFormat.of().formatHex("router submit".getBytes(StandardCharsets.UTF_8)));
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void file_shouldAppendOneJsonLinePerSpan_withItsParent(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("sub/traces.jsonl");
        SpanExporter exporter = SpanExporters.of(config(TracingConfig.Exporter.FILE, null, file));
        try (SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()) {
            Tracer tracer = provider.get("test");
            Span job = tracer.spanBuilder("job").setSpanKind(SpanKind.CONSUMER).startSpan();
            try (Scope ignored = job.makeCurrent()) {
                tracer.spanBuilder("model call").setAttribute("gpupipe.attempt", 1L).startSpan().end();
            }
            job.end();
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(2);
        JsonNode call = JobJson.read(lines.get(0), JsonNode.class);
        JsonNode job = JobJson.read(lines.get(1), JsonNode.class);
        assertThat(call.path("name").asText()).isEqualTo("model call");
        assertThat(call.path("parentSpanId").asText()).isEqualTo(job.path("spanId").asText());
        assertThat(call.path("traceId").asText()).isEqualTo(job.path("traceId").asText());
        assertThat(call.at("/attributes/gpupipe.attempt").asLong()).isEqualTo(1);
        assertThat(job.path("kind").asText()).isEqualTo("CONSUMER");
        assertThat(job.has("parentSpanId")).isFalse();
        assertThat(Long.parseLong(job.path("endTimeUnixNano").asText()))
                .isGreaterThanOrEqualTo(Long.parseLong(call.path("endTimeUnixNano").asText()));
    }

    @Test
    void exportFailure_shouldBeReported_whenTheFileCannotBeWritten(@TempDir Path dir) throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("plain"), "x");
        CompletableResultCode result = new TraceFileExporter(notADirectory.resolve("traces.jsonl")).export(List.of());
        assertThat(result.isSuccess()).isFalse();
    }

    @Test
    void parentAndOf_shouldRoundTripTheWireForm() {
        TraceContext remote = new TraceContext("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", true);
        try (SdkTracerProvider provider = SdkTracerProvider.builder().build()) {
            Span child = provider.get("test").spanBuilder("worker job").setParent(Traces.parent(Optional.of(remote)))
                    .startSpan();
            assertThat(Traces.of(child).orElseThrow().traceId()).isEqualTo(remote.traceId());
            assertThat(Traces.of(child).orElseThrow().spanId()).isNotEqualTo(remote.spanId());
            Span root = provider.get("test").spanBuilder("direct").setParent(Traces.parent(Optional.empty()))
                    .startSpan();
            assertThat(root.getSpanContext().getTraceId()).isNotEqualTo(remote.traceId());
        }
        assertThat(Traces.of(Span.getInvalid())).isEmpty();
    }

    @Test
    void xrayCompatibleIdGenerator_shouldStartTraceIdsWithTheEpochSecond() {
        Instant now = Instant.parse("2026-12-01T10:00:00Z");
        XrayCompatibleIdGenerator ids = new XrayCompatibleIdGenerator(Clock.fixed(now, ZoneOffset.UTC));
        String id = ids.generateTraceId();
        assertThat(Long.parseLong(id.substring(0, 8), 16)).isEqualTo(now.getEpochSecond());
        assertThat(TraceContext.isTraceId(id)).isTrue();
        assertThat(ids.generateTraceId()).isNotEqualTo(id);
        assertThat(TraceContext.isSpanId(ids.generateSpanId())).isTrue();
    }

    private static TracingConfig config(TracingConfig.Exporter exporter, URI endpoint, Path file) {
        return new TracingConfig() {
            @Override
            public Exporter exporter() {
                return exporter;
            }

            @Override
            public Optional<URI> otlpEndpoint() {
                return Optional.ofNullable(endpoint);
            }

            @Override
            public Optional<Path> file() {
                return Optional.ofNullable(file);
            }

            @Override
            public Duration exportDelay() {
                return Duration.ofMillis(10);
            }

            @Override
            public Duration flushTimeout() {
                return Duration.ofSeconds(2);
            }
        };
    }
}
