package io.gpupipe.router.internal;

import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.observability.EmfRecord;
import io.gpupipe.model.observability.JobMetrics;
import io.gpupipe.model.observability.MetricNamespace;
import io.gpupipe.model.routing.RoutingDecision;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Routing metrics as CloudWatch EMF lines (in the configured namespace) written to a sink (stdout in Lambda).
 * Publishing never throws: a metric that cannot be written is logged and dropped, never failing a request.
 */
public final class RoutingMetrics {
    public static final String JOBS_ROUTED = JobMetrics.JOBS_ROUTED;
    public static final String CLASSIFIER_FALLBACKS = "ClassifierFallbacks";
    public static final String CACHE_HITS = "CacheHits";
    private static final Logger LOG = Logger.getLogger(RoutingMetrics.class);

    private final Consumer<String> sink;
    private final Clock clock;
    private final String namespace;

    /** Metrics in the default namespace ({@link MetricNamespace#DEFAULT}). */
    public RoutingMetrics(Consumer<String> sink, Clock clock) {
        this(sink, clock, MetricNamespace.DEFAULT);
    }

    public RoutingMetrics(Consumer<String> sink, Clock clock, String namespace) {
        this.sink = sink;
        this.clock = clock;
        this.namespace = namespace;
    }

    /**
     * One routed job: metrics {@value #JOBS_ROUTED} and {@link JobMetrics#SUBMIT_LATENCY_MS} (from its submission,
     * stamped when the request arrived, to now: it is on its queue) with dimension Tier; reason, task, requestId as
     * properties (searchable, never dimensions).
     */
    public void routed(InferenceJob job, RoutingDecision decision) {
        Instant now = clock.instant();
        publish(() -> EmfRecord.namespace(namespace)
                .dimension(JobMetrics.TIER, decision.tier().wireName())
                .metric(JOBS_ROUTED, 1, EmfRecord.Unit.Count)
                .metric(JobMetrics.SUBMIT_LATENCY_MS, job.submittedAt() == null ? 0
                        : Math.max(0, Duration.between(job.submittedAt(), now).toMillis()),
                        EmfRecord.Unit.Milliseconds)
                .property("reason", decision.reason().name())
                .property("task", job.task().wireName())
                .property("requestId", job.requestId()));
    }

    /** The classifier could not decide (error, timeout, unparseable answer) and the job went to the default tier. */
    public void classifierFallback(String classifier, String cause) {
        publish(() -> EmfRecord.namespace(namespace)
                .dimension("Classifier", classifier)
                .metric(CLASSIFIER_FALLBACKS, 1, EmfRecord.Unit.Count)
                .property("cause", cause));
    }

    /** A job answered from the result cache: metric {@value #CACHE_HITS} with dimension Tier (no queue, no GPU). */
    public void cacheHit(InferenceJob job, Tier tier) {
        publish(() -> EmfRecord.namespace(namespace)
                .dimension("Tier", tier.wireName())
                .metric(CACHE_HITS, 1, EmfRecord.Unit.Count)
                .property("task", job.task().wireName())
                .property("requestId", job.requestId()));
    }

    private void publish(Supplier<EmfRecord> record) {
        try {
            sink.accept(record.get().toJson(clock.instant()));
        } catch (RuntimeException e) {
            LOG.warnf("dropped a routing metric: %s", e.toString());
        }
    }
}
