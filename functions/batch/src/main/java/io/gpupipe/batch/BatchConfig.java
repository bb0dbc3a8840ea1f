package io.gpupipe.batch;

import io.gpupipe.jobs.quota.BatchLinesQuota;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;

/** Configuration of the batch function (env vars GPUPIPE_BATCH_*). */
@ConfigMapping(prefix = "gpupipe.batch")
public interface BatchConfig {
    /** The results bucket: inputs, batch records, markers, results (GPUPIPE_BATCH_BUCKET). */
    String bucket();

    /** The batch queue, where the function fans its own steps out (GPUPIPE_BATCH_QUEUE_URL). */
    String queueUrl();

    /** Each catalogue tier's queue, by tier name (GPUPIPE_BATCH_TIER_QUEUE_URLS_<TIER>), as the router has them. */
    Map<String, String> tierQueueUrls();

    /** MaximumMessageSize of the tier queues (the router's gpupipe.router.max-message-bytes). */
    @WithDefault("262144")
    int maxMessageBytes();

    /** Lines per chunk (one message, one invocation); at most 1,000, what one listing of done records holds. */
    @WithDefault("1000")
    int chunkLines();

    /**
     * The most lines of unfinished batches one caller may have (SAM's {@code MaxUnfinishedBatchLinesPerCaller}, as the
     * router's {@code quota.max-unfinished-batch-lines}): a batch that would take its caller over it fails at
     * validation with {@code line_limit_exceeded}.
     */
    @WithDefault(BatchLinesQuota.DEFAULT_MAX_LINES)
    int maxUnfinishedLines();

    /** Threads writing a chunk's markers, cancelling its lines and reading its results, at once. */
    @WithDefault("16")
    int concurrency();
}
