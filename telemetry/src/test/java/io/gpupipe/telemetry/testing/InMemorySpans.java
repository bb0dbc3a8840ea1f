package io.gpupipe.telemetry.testing;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Test fixture (telemetry's test-jar): every span a component's {@code @QuarkusTest} app ends, in memory. Quarkus
 * adds each SpanProcessor bean to its tracer provider, beside gpupipe's own exporting one.
 */
@Singleton
public class InMemorySpans {
    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

    @Produces
    @Singleton
    SpanProcessor inMemorySpanProcessor() {
        return SimpleSpanProcessor.create(exporter);
    }

    /** The finished spans called {@code name}. */
    public List<SpanData> named(String name) {
        return exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
    }

    public void reset() {
        exporter.reset();
    }
}
