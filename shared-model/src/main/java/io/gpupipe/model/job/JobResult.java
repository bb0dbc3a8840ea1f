package io.gpupipe.model.job;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.embedding.EmbeddingResponse;
import io.gpupipe.model.observability.TraceContext;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The terminal result of a job, stored once at {@code results/{id}.json}. Field names follow seed 001's result
 * format (requestId, status, result{text, usage, finishReason}, processingTimeMs, taskArn, timestamp), extended with
 * tier, model, attempts and a structured error for failures. A result answered from the result cache says so:
 * {@code cached: true} and {@code cachedFrom}, the requestId whose run produced the output. {@code traceId} names the
 * job's trace (the one the router started) and {@code traceparent} the worker's job span in it, so the notifier
 * continues the same trace. A batch line's result names its {@code batch}, so the notifier records the line as ended
 * without a lookup. It names the job's {@code owner} (so the notifier can release the owner's quota and subscribers can
 * filter) and, for a job submitted over the API, the {@code clientRequestId} its client knows it by.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobResult(
        String requestId,
        JobStatus status,
        Task task,
        Output result,
        JobError error,
        Tier tier,
        String model,
        String modelVersion,
        Long processingTimeMs,
        Long queueWaitMs,
        Integer attempts,
        String taskArn,
        String callbackUrl,
        Instant timestamp,
        Boolean cached,
        String cachedFrom,
        String traceId,
        String traceparent,
        BatchMember batch,
        String owner,
        String clientRequestId) {

    public JobResult {
        if (requestId == null || status == null) {
            throw new IllegalArgumentException("requestId and status are required");
        }
        if (!status.isTerminal() || status == JobStatus.CANCELLED) {
            throw new IllegalArgumentException("a result is succeeded or failed, not " + status.wireName());
        }
        if (Boolean.TRUE.equals(cached) && (status != JobStatus.SUCCEEDED || cachedFrom == null)) {
            throw new IllegalArgumentException("a cached result is succeeded and names the request it came from");
        }
    }

    /** A result of no owner (results written before owners existed read this way too). */
    public JobResult(String requestId, JobStatus status, Task task, Output result, JobError error, Tier tier,
                     String model, String modelVersion, Long processingTimeMs, Long queueWaitMs, Integer attempts,
                     String taskArn, String callbackUrl, Instant timestamp, Boolean cached, String cachedFrom,
                     String traceId, String traceparent, BatchMember batch) {
        this(requestId, status, task, result, error, tier, model, modelVersion, processingTimeMs, queueWaitMs,
                attempts, taskArn, callbackUrl, timestamp, cached, cachedFrom, traceId, traceparent, batch, null, null);
    }

    /** A result that is not from the cache, outside any trace and batch. */
    public JobResult(String requestId, JobStatus status, Task task, Output result, JobError error, Tier tier,
                     String model, String modelVersion, Long processingTimeMs, Long queueWaitMs, Integer attempts,
                     String taskArn, String callbackUrl, Instant timestamp) {
        this(requestId, status, task, result, error, tier, model, modelVersion, processingTimeMs, queueWaitMs,
                attempts, taskArn, callbackUrl, timestamp, null, null, null, null, null);
    }

    /** This result as part of {@code trace} (the worker's job span); unchanged when {@code trace} is null. */
    public JobResult withTrace(TraceContext trace) {
        if (trace == null) {
            return this;
        }
        return new JobResult(requestId, status, task, result, error, tier, model, modelVersion, processingTimeMs,
                queueWaitMs, attempts, taskArn, callbackUrl, timestamp, cached, cachedFrom, trace.traceId(),
                trace.traceparent(), batch, owner, clientRequestId);
    }

    /** The trace context this result was written in, when it carries a valid one. */
    public Optional<TraceContext> trace() {
        return TraceContext.fromTraceparent(traceparent);
    }

    /** The same result with {@code output} as its output. */
    public JobResult withOutput(Output output) {
        return new JobResult(requestId, status, task, output, error, tier, model, modelVersion, processingTimeMs,
                queueWaitMs, attempts, taskArn, callbackUrl, timestamp, cached, cachedFrom, traceId, traceparent,
                batch, owner, clientRequestId);
    }

    /** The same result, as line {@code member} of a batch (null: of no batch). */
    public JobResult withBatch(BatchMember member) {
        return new JobResult(requestId, status, task, result, error, tier, model, modelVersion, processingTimeMs,
                queueWaitMs, attempts, taskArn, callbackUrl, timestamp, cached, cachedFrom, traceId, traceparent,
                member, owner, clientRequestId);
    }

    /** The same result, of the job {@code jobOwner} submitted as {@code clientId} (either may be null). */
    public JobResult withOwner(String jobOwner, String clientId) {
        return new JobResult(requestId, status, task, result, error, tier, model, modelVersion, processingTimeMs,
                queueWaitMs, attempts, taskArn, callbackUrl, timestamp, cached, cachedFrom, traceId, traceparent,
                batch, jobOwner, clientId);
    }

    /**
     * The result as its client is shown it: under the id it knows ({@code clientId}), the stored id kept out of
     * sight.
     */
    public JobResult seenAs(String clientId) {
        return new JobResult(clientId, status, task, result, error, tier, model, modelVersion, processingTimeMs,
                queueWaitMs, attempts, taskArn, callbackUrl, timestamp, cached, cachedFrom, traceId, traceparent,
                batch, owner, null);
    }

    /** The id the job's client knows it by: the one it chose over the API, else the stored one. */
    public String visibleRequestId() {
        return clientRequestId != null ? clientRequestId : requestId;
    }

    /** True when the result was answered from the result cache, not by a model run of its own. */
    @JsonIgnore
    public boolean isCached() {
        return Boolean.TRUE.equals(cached);
    }

    /**
     * Model output: text fields for {@code generate}, audio fields for {@code speech}, {@code embeddings} (OpenAI's
     * embedding response) and {@code usage} for {@code embed}. Embeddings too large to carry inline
     * (the worker's {@code EmbeddingOutputs.INLINE_LIMIT_BYTES}) are in their own object instead,
     * named by {@code embeddingsKey} ({@link JobLayout#embeddingsKey}), as speech audio is by {@code audioKey}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Output(
            String text,
            Usage usage,
            String finishReason,
            String audioKey,
            String format,
            Integer sampleRate,
            Long durationMs,
            EmbeddingResponse embeddings,
            String embeddingsKey) {

        /** An output that is not an embedding job's. */
        public Output(String text, Usage usage, String finishReason, String audioKey, String format,
                      Integer sampleRate, Long durationMs) {
            this(text, usage, finishReason, audioKey, format, sampleRate, durationMs, null, null);
        }

        /** An embedding job's vectors in OpenAI's shape, and its usage (input tokens only). */
        public static Output embeddings(EmbeddingResponse response) {
            return new Output(null, Usage.of(response.usage().promptTokens(), 0), null, null, null, null, null,
                    response, null);
        }

        public static Output text(String text, Usage usage, String finishReason) {
            return new Output(text, usage, finishReason, null, null, null, null);
        }

        public static Output audio(String audioKey, String format, int sampleRate, long durationMs) {
            return new Output(null, null, null, audioKey, format, sampleRate, durationMs);
        }

        /** This embedding output with its vectors in the object at {@code key} instead of inline. */
        public Output withEmbeddingsAt(String key) {
            return new Output(text, usage, finishReason, audioKey, format, sampleRate, durationMs, null, key);
        }

        /** This embedding output with {@code vectors} inline again (read back from {@link #embeddingsKey}). */
        public Output withEmbeddingsInline(EmbeddingResponse vectors) {
            return new Output(text, usage, finishReason, audioKey, format, sampleRate, durationMs, vectors, null);
        }

        /** The same output, its own object (audio or vectors) at {@code key}; unchanged when it has none. */
        public Output withObjectAt(String key) {
            if (audioKey != null) {
                return new Output(text, usage, finishReason, key, format, sampleRate, durationMs, embeddings, null);
            }
            return embeddingsKey == null ? this : withEmbeddingsAt(key);
        }

        /** The key of the object this output names beside the result (the WAV, or the vectors), if any. */
        @JsonIgnore
        public Optional<String> objectKey() {
            return Optional.ofNullable(audioKey != null ? audioKey : embeddingsKey);
        }
    }

    /** Token counts as reported by the model server. */
    public record Usage(int promptTokens, int completionTokens, int totalTokens) {
        public static Usage of(int promptTokens, int completionTokens) {
            return new Usage(promptTokens, completionTokens, promptTokens + completionTokens);
        }
    }

    /**
     * Why a job failed: a code from {@link io.gpupipe.model.ErrorCodes}, a readable message, and field errors if
     * any.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record JobError(String code, String message, List<FieldError> fieldErrors) {
        public JobError {
            fieldErrors = fieldErrors == null ? List.of() : List.copyOf(fieldErrors);
        }

        public static JobError of(String code, String message) {
            return new JobError(code, message, List.of());
        }
    }

    /** Where and how a job ran; shared by success and failure results. */
    public record Provenance(Tier tier, String model, String modelVersion, String taskArn, int attempts,
                             Long queueWaitMs, Long processingTimeMs) {
    }

    public static JobResult succeeded(InferenceJob job, Output output, Provenance run, Instant now) {
        return new JobResult(job.requestId(), JobStatus.SUCCEEDED, job.task(), output, null, run.tier(),
                run.model(), run.modelVersion(), run.processingTimeMs(), run.queueWaitMs(), run.attempts(),
                run.taskArn(), job.callbackUrl(), now).withBatch(job.batch()).withOwner(job.owner(),
                job.clientRequestId());
    }

    /** A failure for a job that could be read; {@code run} may be null when the job never reached a worker. */
    public static JobResult failed(InferenceJob job, JobError error, Provenance run, Instant now) {
        return failed(job.requestId(), job.task(), job.callbackUrl(), error, run, now).withBatch(job.batch())
                .withOwner(job.owner(), job.clientRequestId());
    }

    /**
     * A failure that keeps the model's {@code output} (a text job whose output did not take its response format):
     * the raw text stays readable in the result.
     */
    public static JobResult failed(InferenceJob job, Output output, JobError error, Provenance run, Instant now) {
        JobResult failed = failed(job, error, run, now);
        return new JobResult(failed.requestId, failed.status, failed.task, output, failed.error, failed.tier,
                failed.model, failed.modelVersion, failed.processingTimeMs, failed.queueWaitMs, failed.attempts,
                failed.taskArn, failed.callbackUrl, failed.timestamp, null, null, null, null, failed.batch,
                failed.owner, failed.clientRequestId);
    }

    /** A failure for a job known only by its id (e.g. a malformed message that still carried a requestId). */
    public static JobResult failed(String requestId, Task task, String callbackUrl, JobError error,
                                   Provenance run, Instant now) {
        return new JobResult(requestId, JobStatus.FAILED, task, null, error,
                run == null ? null : run.tier(), run == null ? null : run.model(),
                run == null ? null : run.modelVersion(), run == null ? null : run.processingTimeMs(),
                run == null ? null : run.queueWaitMs(), run == null ? null : run.attempts(),
                run == null ? null : run.taskArn(), callbackUrl, now);
    }
}
