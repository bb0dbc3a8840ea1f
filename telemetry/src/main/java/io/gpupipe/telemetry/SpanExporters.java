package io.gpupipe.telemetry;

import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/** The exporter {@link TracingConfig} asks for; a missing endpoint or file stops the start-up with its key's name. */
final class SpanExporters {
    private SpanExporters() {
    }

    static SpanExporter of(TracingConfig config) {
        return switch (config.exporter()) {
            case NONE -> SpanExporter.composite();
            case OTLP -> OtlpHttpSpanExporter.builder().setEndpoint(config.otlpEndpoint().orElseThrow(() ->
                    new IllegalStateException("gpupipe.tracing.exporter=otlp needs gpupipe.tracing.otlp-endpoint "
                            + "(GPUPIPE_TRACING_OTLP_ENDPOINT), e.g. http://localhost:4318/v1/traces")).toString())
                    .build();
            case FILE -> new TraceFileExporter(config.file().orElseThrow(() -> new IllegalStateException(
                    "gpupipe.tracing.exporter=file needs gpupipe.tracing.file (GPUPIPE_TRACING_FILE)")));
        };
    }
}
