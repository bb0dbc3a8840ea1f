package io.gpupipe.model.observability;

/**
 * The environment variables that choose where a component's spans go (the telemetry module's
 * {@code gpupipe.tracing} config), named once for SAM, the CDK worker task and the local stack.
 */
public final class TracingSettings {
    /** {@code none} (default: trace ids are still made, propagated and logged), {@code otlp} or {@code file}. */
    public static final String EXPORTER_ENV = "GPUPIPE_TRACING_EXPORTER";
    /** The OTLP/HTTP traces endpoint for {@code otlp}, e.g. {@code http://localhost:4318/v1/traces}. */
    public static final String OTLP_ENDPOINT_ENV = "GPUPIPE_TRACING_OTLP_ENDPOINT";
    /** The JSON-lines trace file for {@code file} (local stack: one file every component appends to). */
    public static final String FILE_ENV = "GPUPIPE_TRACING_FILE";
    /** Exporter names as configured. */
    public static final String NONE = "none";
    public static final String OTLP = "otlp";
    public static final String FILE = "file";

    private TracingSettings() {
    }
}
