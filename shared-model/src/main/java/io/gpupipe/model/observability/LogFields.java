package io.gpupipe.model.observability;

/**
 * Names of the fields a job's log lines carry (MDC entries in the functions and the worker, JSON fields in the
 * worker's job events), so that one CloudWatch Logs Insights query finds a job across every component.
 */
public final class LogFields {
    public static final String REQUEST_ID = "requestId";
    public static final String TIER = "tier";

    private LogFields() {
    }
}
