package io.gpupipe.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.batch.BatchMember;
import io.gpupipe.model.format.ResponseFormat;
import io.gpupipe.model.embedding.EmbeddingFields;
import io.gpupipe.model.embedding.EncodingFormat;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An inference job: the API request body and the SQS message body. Build one from untrusted JSON with
 * {@link JobRequestParser}, which applies the defaults and reports every problem; the compact constructor only
 * guards the invariants that the parser already establishes. A text job carries either a {@code prompt} or chat
 * {@code messages} (OpenAI chat format), never both. {@code seed} makes sampling reproducible (vLLM's and llama.cpp's
 * sampling seed); {@code cache} asks for the result cache ({@link io.gpupipe.model.cache.CachePolicy}). A job created
 * from a line of a batch carries its {@code batch} membership (set by the batch function, read back from queue
 * messages, never from API requests). A job carries its {@code owner} ({@link Owner}) and, when it came through the
 * API, the {@code clientRequestId} its client chose: its {@code requestId} is then the stored id derived from both
 * ({@link JobIds}). Neither is ever read from an API request. A text job's {@code responseFormat} constrains its
 * output (JSON, or JSON valid against a schema); the worker checks the output against it. An embedding job
 * ({@link Task#EMBED}) carries its texts as {@code input} instead of a prompt, with {@code dimensions} and
 * {@code encodingFormat} ({@link EmbeddingFields}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceJob(
        String requestId,
        Task task,
        String prompt,
        int maxTokens,
        double temperature,
        double topP,
        Tier route,
        String voice,
        Integer priority,
        String callbackUrl,
        Integer ttlSeconds,
        Instant submittedAt,
        String language,
        Double speed,
        String instructions,
        List<ChatMessage> messages,
        Integer seed,
        Boolean cache,
        BatchMember batch,
        String owner,
        String clientRequestId,
        ResponseFormat responseFormat,
        List<String> input,
        Integer dimensions,
        EncodingFormat encodingFormat) {

    public static final int DEFAULT_MAX_TOKENS = 256;
    public static final double DEFAULT_TEMPERATURE = 0.7;
    public static final double DEFAULT_TOP_P = 1.0;

    public InferenceJob {
        if (requestId == null || task == null
                || Stream.of(prompt, messages, input).filter(Objects::nonNull).count() != 1) {
            throw new IllegalArgumentException("requestId, task and exactly one of prompt, messages and input are "
                    + "required");
        }
        messages = messages == null ? null : List.copyOf(messages);
        input = input == null ? null : List.copyOf(input);
        if (batch != null && !batch.requestId().equals(requestId)) {
            throw new IllegalArgumentException("a batch job's requestId is its line's id " + batch.requestId());
        }
        if (owner != null && !Owner.isValid(owner)) {
            throw new IllegalArgumentException("owner is sha256:<hex> or queue, got " + owner);
        }
        if (clientRequestId != null && (owner == null
                || !JobIds.isStoredIdOf(requestId, new Owner(owner), clientRequestId))) {
            throw new IllegalArgumentException("a job with a clientRequestId is stored under the id derived from its"
                    + " owner and that clientRequestId");
        }
    }

    /** A job without a {@code responseFormat} (free text) that is not an embedding job. */
    public InferenceJob(String requestId, Task task, String prompt, int maxTokens, double temperature, double topP,
                        Tier route, String voice, Integer priority, String callbackUrl, Integer ttlSeconds,
                        Instant submittedAt, String language, Double speed, String instructions,
                        List<ChatMessage> messages, Integer seed, Boolean cache, BatchMember batch, String owner,
                        String clientRequestId) {
        this(requestId, task, prompt, maxTokens, temperature, topP, route, voice, priority, callbackUrl, ttlSeconds,
                submittedAt, language, speed, instructions, messages, seed, cache, batch, owner, clientRequestId,
                null, null, null, null);
    }

    /** An embedding job of {@code fields} (text fields at their defaults, which no embedding model reads). */
    public static InferenceJob embedding(String requestId, EmbeddingFields fields, Tier route, Integer priority,
                                         String callbackUrl, Integer ttlSeconds, Instant submittedAt, Boolean cache) {
        return new InferenceJob(requestId, Task.EMBED, null, DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, DEFAULT_TOP_P,
                route, null, priority, callbackUrl, ttlSeconds, submittedAt, null, null, null, null, null, cache,
                null, null, null, null, fields.input(), fields.dimensions(), fields.encodingFormat());
    }

    /** A job of no owner yet (as parsed from a request), that may be a batch line. */
    public InferenceJob(String requestId, Task task, String prompt, int maxTokens, double temperature, double topP,
                        Tier route, String voice, Integer priority, String callbackUrl, Integer ttlSeconds,
                        Instant submittedAt, String language, Double speed, String instructions,
                        List<ChatMessage> messages, Integer seed, Boolean cache, BatchMember batch) {
        this(requestId, task, prompt, maxTokens, temperature, topP, route, voice, priority, callbackUrl, ttlSeconds,
                submittedAt, language, speed, instructions, messages, seed, cache, batch, null, null);
    }

    /** A job without {@code seed} and {@code cache} (both absent) that belongs to no batch. */
    public InferenceJob(String requestId, Task task, String prompt, int maxTokens, double temperature, double topP,
                        Tier route, String voice, Integer priority, String callbackUrl, Integer ttlSeconds,
                        Instant submittedAt, String language, Double speed, String instructions,
                        List<ChatMessage> messages) {
        this(requestId, task, prompt, maxTokens, temperature, topP, route, voice, priority, callbackUrl, ttlSeconds,
                submittedAt, language, speed, instructions, messages, null, null, null, null, null);
    }

    /** A prompt job (no chat messages). */
    public InferenceJob(String requestId, Task task, String prompt, int maxTokens, double temperature, double topP,
                        Tier route, String voice, Integer priority, String callbackUrl, Integer ttlSeconds,
                        Instant submittedAt, String language, Double speed, String instructions) {
        this(requestId, task, prompt, maxTokens, temperature, topP, route, voice, priority, callbackUrl, ttlSeconds,
                submittedAt, language, speed, instructions, null);
    }

    /** A job without the speech options ({@code language}, {@code speed}, {@code instructions}). */
    public InferenceJob(String requestId, Task task, String prompt, int maxTokens, double temperature, double topP,
                        Tier route, String voice, Integer priority, String callbackUrl, Integer ttlSeconds,
                        Instant submittedAt) {
        this(requestId, task, prompt, maxTokens, temperature, topP, route, voice, priority, callbackUrl, ttlSeconds,
                submittedAt, null, null, null, null);
    }

    /** A copy stamped with the time the router accepted it. */
    public InferenceJob withSubmittedAt(Instant at) {
        return new InferenceJob(requestId, task, prompt, maxTokens, temperature, topP, route, voice, priority,
                callbackUrl, ttlSeconds, at, language, speed, instructions, messages, seed, cache, batch, owner,
                clientRequestId, responseFormat, input, dimensions, encodingFormat);
    }

    /** A copy that is line {@code member.line()} of a batch (its requestId must be that line's id). */
    public InferenceJob withBatch(BatchMember member) {
        return new InferenceJob(requestId, task, prompt, maxTokens, temperature, topP, route, voice, priority,
                callbackUrl, ttlSeconds, submittedAt, language, speed, instructions, messages, seed, cache, member,
                owner, clientRequestId, responseFormat, input, dimensions, encodingFormat);
    }

    /** A copy owned by {@code by}, under the same id (a batch line takes its batch's owner). */
    public InferenceJob withOwner(Owner by) {
        return new InferenceJob(requestId, task, prompt, maxTokens, temperature, topP, route, voice, priority,
                callbackUrl, ttlSeconds, submittedAt, language, speed, instructions, messages, seed, cache, batch,
                by.value(), null, responseFormat, input, dimensions, encodingFormat);
    }

    /**
     * The job as {@code by} submitted it over the API: this job's requestId becomes its {@code clientRequestId} and
     * the job is stored under the id derived from both ({@link JobIds#stored}).
     */
    public InferenceJob submittedBy(Owner by) {
        return new InferenceJob(JobIds.stored(by, requestId), task, prompt, maxTokens, temperature, topP, route,
                voice, priority, callbackUrl, ttlSeconds, submittedAt, language, speed, instructions, messages, seed,
                cache, batch, by.value(), requestId, responseFormat, input, dimensions, encodingFormat);
    }

    /** The id the job's client knows it by: the one it chose over the API, else the stored one. */
    public String visibleRequestId() {
        return clientRequestId != null ? clientRequestId : requestId;
    }

    /**
     * The characters of the job's input: the prompt's, or the sum of its chat messages' contents. Routing and the
     * size limit ({@link JobRequestParser#MAX_PROMPT_CHARS}) count these.
     */
    public int inputChars() {
        if (input != null) {
            return EmbeddingFields.chars(input);
        }
        return messages == null ? prompt.length() : ChatMessage.contentChars(messages);
    }

    /** The job's input as one text: the prompt, or the chat transcript ("role: content" lines). */
    public String inputText() {
        if (input != null) {
            return String.join("\n", input);
        }
        return messages == null ? prompt : ChatMessage.transcript(messages);
    }

    /** An embedding job's own fields; empty for any other job. */
    public Optional<EmbeddingFields> embeddingFields() {
        return input == null ? Optional.empty() : Optional.of(new EmbeddingFields(input, dimensions, encodingFormat));
    }

    /**
     * SHA-256 (hex) of everything the client asked for: every field but {@code submittedAt}. The marker keeps it,
     * so a resubmission of the same request can be told from a different request reusing its requestId.
     */
    public String requestDigest() {
        return Digests.sha256Hex(JobJson.write(withSubmittedAt(null)));
    }

    /** The instant after which the job must not start, when it has a TTL and a submission time. */
    public Optional<Instant> expiresAt() {
        if (ttlSeconds == null || submittedAt == null) {
            return Optional.empty();
        }
        return Optional.of(submittedAt.plus(Duration.ofSeconds(ttlSeconds)));
    }

    /** True when the job carries a TTL that has run out at {@code now}. */
    public boolean isExpiredAt(Instant now) {
        return expiresAt().map(now::isAfter).orElse(false);
    }
}
