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

    /** The one finished span called {@code name}; fails when there is none or more than one. */
    public SpanData only(String name) {
        List<SpanData> spans = named(name);
        if (spans.size() != 1) {
            throw new AssertionError("expected one span '" + name + "', found " + spans.size() + ": " + spans);
        }
        return spans.get(0);
    }

    public void reset() {
        exporter.reset();
    }
}
