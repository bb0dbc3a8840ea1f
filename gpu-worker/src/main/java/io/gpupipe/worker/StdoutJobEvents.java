package io.gpupipe.worker;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.observability.EmfRecord;
import io.gpupipe.model.observability.JobMetrics;
import io.gpupipe.model.observability.LogFields;
import io.gpupipe.model.observability.MetricNamespace;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import org.jboss.logging.MDC;

/**
 * Writes each job event to stdout twice: a structured JSON log line (for Logs Insights) and a CloudWatch Embedded
 * Metric Format line (the configured namespace, dimensions Tier and Outcome) that the awslogs driver turns into
 * metrics. Inference figures are metrics only when inference ran, so they never average in zeros.
 */
public final class StdoutJobEvents implements JobEvents {
    public static final String LOGGER = "io.gpupipe.worker.job";

    private final PrintStream out;
    private final Clock clock;
    private final String namespace;

    /** Events with metrics in the default namespace ({@link MetricNamespace#DEFAULT}). */
    public StdoutJobEvents(PrintStream out, Clock clock) {
        this(out, clock, MetricNamespace.DEFAULT);
    }

    public StdoutJobEvents(PrintStream out, Clock clock, String namespace) {
        this.out = out;
        this.clock = clock;
        this.namespace = namespace;
    }

    @Override
    public void emit(JobEvent event) {
        Instant now = clock.instant();
        // emitted on the job's thread, whose MDC names the job's trace (JobLogContext)
        Object traceId = MDC.get(LogFields.TRACE_ID);
        String log = logLine(event, now, traceId == null ? null : traceId.toString());
        String emf = emfLine(event, now, namespace);
        synchronized (out) {
            out.println(log);
            out.println(emf);
        }
    }

    /** The outcomes of a delivery that wrote the job's one result. */
    private static boolean writesResult(JobOutcome outcome) {
        return switch (outcome) {
            case SUCCEEDED, FAILED, EXPIRED -> true;
            case INVALID, CANCELLED, DUPLICATE, REQUEUED, RELEASED -> false;
        };
    }

    public static String logLine(JobEvent e, Instant at) {
        return logLine(e, at, null);
    }

    /** The job event's JSON log line; {@code traceId} (the job's trace) is left out when null. */
    public static String logLine(JobEvent e, Instant at, String traceId) {
        ObjectNode line = JobJson.mapper().createObjectNode();
        line.put("timestamp", at.toString());
        line.put("level", e.errorCode() == null ? "INFO" : "WARN");
        line.put("logger", LOGGER);
        line.put("message", "job " + e.outcome().wireName());
        line.put("requestId", e.requestId());
        line.put("tier", e.tier().wireName());
        if (e.task() != null) {
            line.put("task", e.task().wireName());
        }
        line.put("outcome", e.outcome().wireName());
        if (e.errorCode() != null) {
            line.put("errorCode", e.errorCode());
        }
        line.put("attempts", e.attempts());
        line.put("queueWaitMs", e.queueWaitMs());
        line.put("inferenceMs", e.inferenceMs());
        line.put("processingMs", e.processingMs());
        line.put("promptTokens", e.promptTokens());
        line.put("completionTokens", e.completionTokens());
        line.put("modelCalls", e.modelCalls());
        if (e.model() != null) {
            line.put("model", e.model());
            line.put("modelVersion", e.modelVersion());
        }
        line.put("taskArn", e.taskArn());
        if (traceId != null) {
            line.put(LogFields.TRACE_ID, traceId);
        }
        return line.toString();
    }

    /**
     * The EMF line: dimensions Tier and Outcome, rolled up to Tier alone (the per-tier percentiles the dashboard and
     * the p99 alarm read: shared-model {@link JobMetrics}); never a requestId dimension. Submit-to-result latency
     * only when this delivery wrote the job's result; tokens per second only for text that produced tokens.
     */
    public static String emfLine(JobEvent e, Instant at, String namespace) {
        EmfRecord record = EmfRecord.namespace(namespace)
                .dimension(JobMetrics.TIER, e.tier().wireName())
                .dimension("Outcome", e.outcome().wireName())
                .rollUp(JobMetrics.TIER)
                .metric("Jobs", 1, EmfRecord.Unit.Count)
                .metric(JobMetrics.QUEUE_WAIT_MS, e.queueWaitMs(), EmfRecord.Unit.Milliseconds);
        if (writesResult(e.outcome())) {
            record.metric(JobMetrics.SUBMIT_TO_RESULT_MS, e.queueWaitMs() + e.processingMs(),
                    EmfRecord.Unit.Milliseconds);
        }
        if (e.modelCalls() > 0) {
            record.metric(JobMetrics.INFERENCE_MS, e.inferenceMs(), EmfRecord.Unit.Milliseconds)
                    .metric("PromptTokens", e.promptTokens(), EmfRecord.Unit.Count)
                    .metric("CompletionTokens", e.completionTokens(), EmfRecord.Unit.Count);
            if (e.completionTokens() > 0 && e.inferenceMs() > 0) {
                record.metric(JobMetrics.TOKENS_PER_SECOND, e.completionTokens() * 1000.0 / e.inferenceMs(),
                        EmfRecord.Unit.CountPerSecond);
            }
        }
        return record.property("requestId", e.requestId())
                .property("task", e.task() == null ? null : e.task().wireName())
                .property("errorCode", e.errorCode())
                .property("attempts", e.attempts())
                .property("model", e.model())
                .property("taskArn", e.taskArn())
                .toJson(at);
    }
}
