package io.gpupipe.model.observability;

/**
 * Names of the fields a job's log lines carry (MDC entries in the functions and the worker, JSON fields in the
 * worker's job events), so that one CloudWatch Logs Insights query finds a job across every component.
 */
public final class LogFields {
    public static final String REQUEST_ID = "requestId";
    public static final String TIER = "tier";
    /** The job's trace (32 hex digits): the MDC key Quarkus OpenTelemetry also uses for the current span's trace. */
    public static final String TRACE_ID = "traceId";

    private LogFields() {
    }
}
