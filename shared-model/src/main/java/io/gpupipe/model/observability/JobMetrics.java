package io.gpupipe.model.observability;

import io.gpupipe.model.TierDefinition;
import java.time.Duration;

/**
 * The names of the per-tier job metrics the worker and router publish as EMF (dimension {@code Tier}, rolled up
 * over outcomes), which the CDK dashboard and alarms read: one place, so a renamed metric cannot leave a dashboard
 * widget reading nothing. Also the p99 submit-to-result latency a tier is alarmed on.
 */
public final class JobMetrics {
    /** Dimension of every per-tier metric. */
    public static final String TIER = "Tier";
    /** Worker: from the job's submission to its result being written (queue wait + processing), ms. */
    public static final String SUBMIT_TO_RESULT_MS = "SubmitToResultMs";
    /** Worker: from submission (or the message's sent time) until a worker started the job, ms. */
    public static final String QUEUE_WAIT_MS = "QueueWaitMs";
    /** Worker: time spent in model calls (all calls and backoffs of one delivery), ms. */
    public static final String INFERENCE_MS = "InferenceMs";
    /** Worker: completion tokens per second of inference time (text jobs that generated tokens). */
    public static final String TOKENS_PER_SECOND = "TokensPerSecond";
    /** Router: from the request's arrival to the job being on its queue, ms. */
    public static final String SUBMIT_LATENCY_MS = "SubmitLatencyMs";
    /** Router: jobs accepted and enqueued. */
    public static final String JOBS_ROUTED = "JobsRouted";

    private JobMetrics() {
    }

    /**
     * The p99 submit-to-result latency above which a tier is not keeping up: a job that meets an idle tier waits
     * for a cold start (at most the model load grace) and then runs within its model timeout, so a p99 above their
     * sum means jobs wait for capacity that is not coming (scaling stuck at its ceiling, tasks failing to start).
     */
    public static Duration p99SubmitToResultObjective(TierDefinition tier) {
        return tier.modelLoadGrace().plus(tier.modelTimeout());
    }
}
