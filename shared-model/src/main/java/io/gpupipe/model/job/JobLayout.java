package io.gpupipe.model.job;

import io.gpupipe.model.RequestIds;
import java.util.Optional;

/**
 * The S3 layout of the results bucket, defined once: {@code jobs/{id}.json} (marker), {@code results/{id}.json}
 * (terminal result), {@code results/{id}.wav} (speech audio), {@code results/{id}.embeddings} (an embedding job's
 * vectors too large to stay in the result), {@code payloads/{id}.json} (claim-check payload),
 * {@code notifications/{id}.{step}.json} (notifier delivery state) and {@code cache/} (the result cache: its objects
 * are named by {@code io.gpupipe.model.cache.CacheKey}).
 */
public final class JobLayout {
    public static final String JOBS_PREFIX = "jobs/";
    public static final String RESULTS_PREFIX = "results/";
    /** Claim-check payloads of jobs too large for a queue message ({@link JobMessage}). */
    public static final String PAYLOADS_PREFIX = "payloads/";
    /** The notifier's per-result delivery state (what already went out), never under results/ (no S3 event). */
    public static final String NOTIFICATIONS_PREFIX = "notifications/";
    /** The result cache: entries written by workers, read by the router; expired by an S3 lifecycle rule. */
    public static final String CACHE_PREFIX = "cache/";
    public static final String JSON_SUFFIX = ".json";
    public static final String WAV_SUFFIX = ".wav";
    /**
     * An embedding job's vectors in their own object (OpenAI's embedding response as JSON). Deliberately not
     * {@code .json}: the notifier's S3 trigger is {@code results/*.json}, and this object is not a result.
     */
    public static final String EMBEDDINGS_SUFFIX = ".embeddings";

    private JobLayout() {
    }

    public static String markerKey(String requestId) {
        return JOBS_PREFIX + requestId + JSON_SUFFIX;
    }

    public static String resultKey(String requestId) {
        return RESULTS_PREFIX + requestId + JSON_SUFFIX;
    }

    public static String payloadKey(String requestId) {
        return PAYLOADS_PREFIX + requestId + JSON_SUFFIX;
    }

    /** {@code notifications/{id}.{step}.json}: written once a notification step (SNS, callback) went out. */
    public static String notificationKey(String requestId, String step) {
        return NOTIFICATIONS_PREFIX + requestId + "." + step + JSON_SUFFIX;
    }

    public static String audioKey(String requestId) {
        return RESULTS_PREFIX + requestId + WAV_SUFFIX;
    }

    /** {@code results/{id}.embeddings}: the vectors of an embedding result too large to carry them inline. */
    public static String embeddingsKey(String requestId) {
        return RESULTS_PREFIX + requestId + EMBEDDINGS_SUFFIX;
    }

    /** The request id named by a result key ({@code results/{id}.json}), if the key is one. */
    public static Optional<String> requestIdOfResultKey(String key) {
        if (key == null || !key.startsWith(RESULTS_PREFIX) || !key.endsWith(JSON_SUFFIX)) {
            return Optional.empty();
        }
        String id = key.substring(RESULTS_PREFIX.length(), key.length() - JSON_SUFFIX.length());
        return RequestIds.isValid(id) ? Optional.of(id) : Optional.empty();
    }
}
