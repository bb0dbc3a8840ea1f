package io.gpupipe.telemetry;

import io.opentelemetry.sdk.trace.IdGenerator;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * What this module adds to the SDK Quarkus OpenTelemetry builds: the span processor (Quarkus adds every
 * {@link SpanProcessor} bean to its tracer provider) and the id generator (it uses an {@link IdGenerator} bean).
 * A {@code SpanProcessor}, not a {@code SpanExporter} bean: Quarkus 3.33 drops its OTLP processor when any
 * exporter bean exists, and it must stay off anyway (each component sets {@code quarkus.otel.traces.exporter=none}).
 */
@Singleton
public class TracingBeans {

    @Produces
    @Singleton
    ExportingSpanProcessor gpupipeSpanProcessor(TracingConfig config) {
        if (config.exporter() == TracingConfig.Exporter.NONE) {
            return new ExportingSpanProcessor(SpanProcessor.composite());
        }
        return new ExportingSpanProcessor(BatchSpanProcessor.builder(SpanExporters.of(config))
                .setScheduleDelay(config.exportDelay()).build());
    }

    @Produces
    @Singleton
    IdGenerator xrayCompatibleIds() {
        return new XrayCompatibleIdGenerator(Clock.systemUTC());
    }
}
