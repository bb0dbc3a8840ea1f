package io.gpupipe.model.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.Digests;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.embedding.EmbeddingFields;
import io.gpupipe.model.embedding.EncodingFormat;
import io.gpupipe.model.format.ResponseFormat;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An inference job: the API request body and the SQS message body. Build one from untrusted JSON with
 * {@link JobRequestParser} (a client's request) or {@link QueuedJob} (a queue message), which apply the defaults and
 * report every problem; the compact constructor only guards the invariants that they already establish. A text job carries either a {@code prompt} or chat
 * {@code messages} (OpenAI chat format), never both. {@code seed} makes sampling reproducible (vLLM's and llama.cpp's
 * sampling seed); {@code cache} asks for the result cache ({@link io.gpupipe.model.cache.CachePolicy}). A job created
 * from a line of a batch carries its {@code batch} membership (set by the batch function, read back from queue
 * messages, never from API requests). Who the job is is one value, its {@link JobKey}: its {@code owner}
 * ({@link Owner}), when it came through the API the {@code clientRequestId} its client chose, and the id it is stored
 * under, its {@code requestId} (derived from the other two once, when the key is made). The JSON keeps the three as
 * fields of their own; owner and client id are never read from an API request. A text job's {@code responseFormat} constrains its
 * output (JSON, or JSON valid against a schema); the worker checks the output against it. An embedding job
 * ({@link Task#EMBED}) carries its texts as {@code input} instead of a prompt, with {@code dimensions} and
 * {@code encodingFormat} ({@link EmbeddingFields}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"requestId", "task", "prompt", "maxTokens", "temperature", "topP", "route", "voice", "priority",
        "callbackUrl", "ttlSeconds", "submittedAt", "language", "speed", "instructions", "messages", "seed", "cache",
        "batch", "owner", "clientRequestId", "responseFormat", "input", "dimensions", "encodingFormat"})
public record InferenceJob(
        @JsonIgnore JobKey key,
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
        ResponseFormat responseFormat,
        List<String> input,
        Integer dimensions,
        EncodingFormat encodingFormat) {

    public static final int DEFAULT_MAX_TOKENS = 256;
    public static final double DEFAULT_TEMPERATURE = 0.7;
    public static final double DEFAULT_TOP_P = 1.0;
    private static final String REQUIRED = "requestId, task and exactly one of prompt, messages and input are required";

    /** Guards the invariants only: the key was checked where it was made, so a copy hashes nothing. */
    public InferenceJob {
        if (key == null || task == null || Stream.of(prompt, messages, input).filter(Objects::nonNull).count() != 1) {
            throw new IllegalArgumentException(REQUIRED);
        }
        messages = messages == null ? null : List.copyOf(messages);
        input = input == null ? null : List.copyOf(input);
        if (batch != null && !batch.requestId().equals(key.storedId())) {
            throw new IllegalArgumentException("a batch job's requestId is its line's id " + batch.requestId());
        }
    }

    /**
     * A job as its document names it: stored under {@code requestId}, owned by {@code owner} (or none) and known
     * to its client as {@code clientRequestId} (which must derive {@code requestId}, {@link JobKey#of}).
     */
    @JsonCreator
    public InferenceJob(@JsonProperty("requestId") String requestId, @JsonProperty("task") Task task,
                        @JsonProperty("prompt") String prompt, @JsonProperty("maxTokens") int maxTokens,
                        @JsonProperty("temperature") double temperature, @JsonProperty("topP") double topP,
                        @JsonProperty("route") Tier route, @JsonProperty("voice") String voice,
                        @JsonProperty("priority") Integer priority, @JsonProperty("callbackUrl") String callbackUrl,
                        @JsonProperty("ttlSeconds") Integer ttlSeconds,
                        @JsonProperty("submittedAt") Instant submittedAt, @JsonProperty("language") String language,
                        @JsonProperty("speed") Double speed, @JsonProperty("instructions") String instructions,
                        @JsonProperty("messages") List<ChatMessage> messages, @JsonProperty("seed") Integer seed,
                        @JsonProperty("cache") Boolean cache, @JsonProperty("batch") BatchMember batch,
                        @JsonProperty("owner") String owner, @JsonProperty("clientRequestId") String clientRequestId,
                        @JsonProperty("responseFormat") ResponseFormat responseFormat,
                        @JsonProperty("input") List<String> input, @JsonProperty("dimensions") Integer dimensions,
                        @JsonProperty("encodingFormat") EncodingFormat encodingFormat) {
        this(keyOf(requestId, owner, clientRequestId), task, prompt, maxTokens, temperature, topP, route, voice,
                priority, callbackUrl, ttlSeconds, submittedAt, language, speed, instructions, messages, seed, cache,
                batch, responseFormat, input, dimensions, encodingFormat);
    }

    private static JobKey keyOf(String requestId, String owner, String clientRequestId) {
        if (requestId == null) {
            throw new IllegalArgumentException(REQUIRED);
        }
        return JobKey.of(requestId, owner, clientRequestId);
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
        return new InferenceJob(JobKey.stored(requestId, null), Task.EMBED, null, DEFAULT_MAX_TOKENS,
                DEFAULT_TEMPERATURE, DEFAULT_TOP_P, route, null, priority, callbackUrl, ttlSeconds, submittedAt, null,
                null, null, null, null, cache, null, null, fields.input(), fields.dimensions(),
                fields.encodingFormat());
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
        return new InferenceJob(key, task, prompt, maxTokens, temperature, topP, route, voice, priority, callbackUrl,
                ttlSeconds, at, language, speed, instructions, messages, seed, cache, batch, responseFormat, input,
                dimensions, encodingFormat);
    }

    /**
     * A copy that is line {@code member.line()} of a batch, stored under that line's id ({@link BatchMember#requestId})
     * and known to no client by another: the batch's client names its lines by {@code custom_id}.
     */
    public InferenceJob withBatch(BatchMember member) {
        return new InferenceJob(JobKey.stored(member.requestId(), key.owner().orElse(null)), task, prompt, maxTokens,
                temperature, topP, route, voice, priority, callbackUrl, ttlSeconds, submittedAt, language, speed,
                instructions, messages, seed, cache, member, responseFormat, input, dimensions, encodingFormat);
    }

    /** A copy under {@code newKey}. */
    public InferenceJob withKey(JobKey newKey) {
        return new InferenceJob(newKey, task, prompt, maxTokens, temperature, topP, route, voice, priority,
                callbackUrl, ttlSeconds, submittedAt, language, speed, instructions, messages, seed, cache, batch,
                responseFormat, input, dimensions, encodingFormat);
    }

    /** A copy owned by {@code by}, under the same id (a batch line takes its batch's owner). */
    public InferenceJob withOwner(Owner by) {
        return withKey(key.ownedBy(by));
    }

    /**
     * The job as {@code by} submitted it over the API: stored under the id derived from {@code by} and the
     * {@code clientRequestId} this request named ({@link JobKey#submittedBy}).
     */
    public InferenceJob submittedBy(Owner by) {
        return withKey(key.submittedBy(by));
    }

    /** The id the job is stored under (S3 keys, queue messages, results). */
    @JsonProperty("requestId")
    public String requestId() {
        return key.storedId();
    }

    /** The owner's value ({@link Owner}); null before the job is submitted. */
    @JsonProperty("owner")
    public String owner() {
        return key.owner().map(Owner::value).orElse(null);
    }

    /** The id the job's client chose over the API; null for a job that has none. */
    @JsonProperty("clientRequestId")
    public String clientRequestId() {
        return key.clientRequestId();
    }

    /** The id the job's client knows it by: the one it chose over the API, else the stored one. */
    public String visibleRequestId() {
        return key.visibleId();
    }

    /**
     * The characters of the job's input: the prompt's, or the sum of its chat messages' contents. Routing and the
     * size limit ({@link JobLimits#MAX_PROMPT_CHARS}) count these.
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
