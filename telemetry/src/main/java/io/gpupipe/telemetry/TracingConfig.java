package io.gpupipe.telemetry;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where spans go ({@code gpupipe.tracing}; env vars in shared-model {@code TracingSettings}). Run-time choices, so
 * one deployment package serves every environment: Quarkus's own exporter choice is a build-time property.
 */
@ConfigMapping(prefix = "gpupipe.tracing")
public interface TracingConfig {
    /** none: spans are made (ids propagate and are logged) but not exported; otlp; file. */
    @WithDefault("none")
    Exporter exporter();

    /** OTLP/HTTP (protobuf) traces endpoint, required for {@code otlp}: an ADOT / OpenTelemetry collector. */
    Optional<URI> otlpEndpoint();

    /** JSON-lines file every span is appended to, required for {@code file}. */
    Optional<Path> file();

    /** How long finished spans may wait before they are exported in a batch (a Lambda flushes at its end anyway). */
    @WithDefault("1s")
    Duration exportDelay();

    /** Longest a flush (end of a Lambda invocation, shutdown) waits for the export. */
    @WithDefault("2s")
    Duration flushTimeout();

    /** The exporters (configured in lower case). */
    enum Exporter {
        NONE,
        OTLP,
        FILE
    }
}
