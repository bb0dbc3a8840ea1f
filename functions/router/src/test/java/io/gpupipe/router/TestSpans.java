package io.gpupipe.router;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Test-only: every span the router ends, in memory (Quarkus adds each SpanProcessor bean to its tracer provider). */
@Singleton
public class TestSpans {
    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

    @Produces
    @Singleton
    SpanProcessor inMemorySpans() {
        return SimpleSpanProcessor.create(exporter);
    }

    InMemorySpanExporter exporter() {
        return exporter;
    }
}
