package io.gpupipe.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.batch.BatchMember;
import io.gpupipe.model.cache.CachePolicy;
import io.gpupipe.model.format.ResponseFormat;
import io.gpupipe.model.format.ResponseFormatReader;
import io.gpupipe.model.embedding.EmbeddingFields;
import io.gpupipe.model.notify.CallbackTargetPolicy;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The one validator of job requests, used by the router (HTTP) and the worker (queue messages). It never throws for
 * bad input: it returns every problem at once, so a client can fix its request in one round trip.
 */
public final class JobRequestParser {

    /** The input limit: a prompt's characters, or the sum of a chat job's message contents. */
    public static final int MAX_PROMPT_CHARS = 100_000;
    public static final int MIN_MAX_TOKENS = 1;
    public static final int MAX_MAX_TOKENS = 2048;
    public static final double MAX_TEMPERATURE = 2.0;
    public static final int MIN_TTL_SECONDS = 60;
    public static final int MAX_TTL_SECONDS = 86_400;
    public static final int MAX_VOICE_CHARS = 64;
    public static final int MAX_CALLBACK_URL_CHARS = 2048;
    /** vLLM-Omni's speech API bounds ({@code speed: float = Field(ge=0.25, le=4.0)} in protocol/audio.py). */
    public static final double MIN_SPEED = 0.25;
    public static final double MAX_SPEED = 4.0;
    /** Our bound: vLLM-Omni rejects instructions above a server-configured maximum; we stay well inside it. */
    public static final int MAX_INSTRUCTIONS_CHARS = 500;
    /**
     * The largest {@code seed}: a non-negative 32-bit integer fits vLLM's {@code seed} (any 64-bit integer,
     * protocol.py {@code Field(None, ge=_LONG_INFO.min, le=_LONG_INFO.max)}) and llama.cpp's uint32 seed, whose
     * 0xFFFFFFFF ({@code LLAMA_DEFAULT_SEED}, -1 as a Java int) means "a random seed", which would not reproduce.
     */
    public static final int MAX_SEED = Integer.MAX_VALUE;
    /**
     * The languages of the official Qwen3-TTS checkpoints ("Auto" always accepted), compared case-insensitively and
     * sent title-cased, as vLLM-Omni's Qwen3-TTS adapter does (docs/serving/speech_api.md, "Supported languages").
     */
    public static final List<String> SPEECH_LANGUAGES = List.of("Auto", "Chinese", "English", "Japanese", "Korean",
            "German", "French", "Russian", "Portuguese", "Spanish", "Italian");

    private static final Pattern UUID_V4 = Pattern.compile(
            "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", Pattern.CASE_INSENSITIVE);
    /**
     * Callback targets judged at submission by the notifier's own policy, without DNS (names are judged by their
     * resolved addresses when the callback is sent). The local stack's loopback names are allowed here, over http
     * too; in a deployment the notifier refuses them unless its allow-list names them.
     */
    private static final CallbackTargetPolicy SUBMISSION_TARGETS = new CallbackTargetPolicy(
            Set.of("localhost", "127.0.0.1", "::1"), host -> {
                throw new IllegalStateException("callback hosts are not resolved at submission");
            });

    /** Where the JSON came from: the API may generate a requestId; a queue message must carry one. */
    public enum Source {
        /** Client request over HTTP: requestId generated when absent; submittedAt is set by the router. */
        API,
        /** Message body from a tier queue: requestId required; submittedAt read when present. */
        QUEUE
    }

    /** Result of parsing: a valid job, or every field error (and the requestId when one could be read). */
    public sealed interface Outcome {
        /** The request is valid; defaults applied and requestId normalised to lower case. */
        record Valid(InferenceJob job) implements Outcome {
        }

        /** The request is invalid; {@code requestId} is present when the body carried a valid one. */
        record Invalid(List<FieldError> errors, Optional<String> requestId) implements Outcome {
            public Invalid {
                errors = List.copyOf(errors);
            }
        }
    }

    private final Supplier<UUID> idGenerator;
    private final TierCatalogue tiers;
    /** The tier whose queue the messages come from, for a worker's parser; null for the router's. */
    private final Tier consumer;

    public JobRequestParser() {
        this(UUID::randomUUID);
    }

    public JobRequestParser(Supplier<UUID> idGenerator) {
        this(idGenerator, TierCatalogue.bundled());
    }

    /** A parser whose {@code route} must name a tier of {@code tiers} that serves the job's task. */
    public JobRequestParser(Supplier<UUID> idGenerator, TierCatalogue tiers) {
        this(idGenerator, tiers, null);
    }

    private JobRequestParser(Supplier<UUID> idGenerator, TierCatalogue tiers, Tier consumer) {
        this.idGenerator = idGenerator;
        this.tiers = java.util.Objects.requireNonNull(tiers, "tiers");
        this.consumer = consumer;
    }

    /**
     * A parser for the messages of {@code tier}'s queue: a job whose task the tier does not serve (sent straight to
     * the wrong queue) is invalid, with a {@code task} error of code {@link ErrorCodes#NOT_SERVED}, so it ends like
     * any bad message instead of reaching a model server that cannot run it.
     */
    public JobRequestParser forQueueOf(Tier tier) {
        tiers.get(tier);
        return new JobRequestParser(idGenerator, tiers, tier);
    }

    /** The tiers a {@code route} may name. */
    public TierCatalogue tiers() {
        return tiers;
    }

    /** Parses raw JSON text; malformed JSON is a {@code body} error, never an exception. */
    public Outcome parse(String json, Source source) {
        if (json == null || json.isBlank()) {
            return invalidBody(ErrorCodes.REQUIRED, "request body is required");
        }
        try {
            return parse(JobJson.mapper().readTree(json), source);
        } catch (JsonProcessingException e) {
            return invalidBody(ErrorCodes.INVALID_FORMAT, "request body is not valid JSON: "
                    + e.getOriginalMessage());
        }
    }

    /** Validates a parsed JSON document. Unknown fields are ignored. */
    public Outcome parse(JsonNode body, Source source) {
        if (body == null || body.isNull() || body.isMissingNode()) {
            return invalidBody(ErrorCodes.REQUIRED, "request body must be a JSON object, got null");
        }
        if (!body.isObject()) {
            return invalidBody(ErrorCodes.INVALID_TYPE, "request body must be a JSON object, got "
                    + describe(body));
        }
        var errors = new ArrayList<FieldError>();
        var fields = new FieldReader(body, errors);

        String requestId = readRequestId(fields, source);
        boolean taskAbsent = fields.isAbsent("task");
        Optional<Task> named = fields.enumValue("task", Task::fromWireName, Task.describeWireNames());
        Task task = named.orElse(Task.GENERATE);
        if (consumer != null && (taskAbsent || named.isPresent())) {
            tiers.refusal(consumer, task).ifPresent(why -> fields.error("task", ErrorCodes.NOT_SERVED, "tier " + why));
        }
        String prompt = fields.isAbsent("messages") && task != Task.EMBED ? readPrompt(fields) : null;
        List<ChatMessage> messages = ChatMessagesReader.read(fields, task);
        int maxTokens = fields.integer("maxTokens", MIN_MAX_TOKENS, MAX_MAX_TOKENS)
                .orElse(InferenceJob.DEFAULT_MAX_TOKENS);
        double temperature = fields.number("temperature", 0.0, MAX_TEMPERATURE)
                .orElse(InferenceJob.DEFAULT_TEMPERATURE);
        double topP = fields.number("topP", 0.0, 1.0).orElse(InferenceJob.DEFAULT_TOP_P);
        Tier route = readRoute(fields, task);
        String voice = readVoice(fields, task);
        Integer priority = fields.integer("priority", Integer.MIN_VALUE, Integer.MAX_VALUE).orElse(null);
        String callbackUrl = readCallbackUrl(fields);
        Integer ttlSeconds = fields.integer("ttlSeconds", MIN_TTL_SECONDS, MAX_TTL_SECONDS).orElse(null);
        Instant submittedAt = source == Source.QUEUE ? readSubmittedAt(fields) : null;
        String language = readLanguage(fields, task);
        Double speed = speechOnly(fields, task, "speed") ? fields.number("speed", MIN_SPEED, MAX_SPEED).orElse(null)
                : null;
        String instructions = readInstructions(fields, task);
        Integer seed = onlyFor(fields, task, Task.GENERATE, "seed")
                ? fields.integer("seed", 0, MAX_SEED).orElse(null) : null;
        Boolean cache = readCache(fields, errors, task, temperature, seed);
        ResponseFormat responseFormat = ResponseFormatReader.read(fields, task);
        BatchMember batch = source == Source.QUEUE ? readBatch(fields, requestId) : null;
        // who a job belongs to is never the client's to say: only queue messages (IAM-trusted senders) carry it
        String owner = source == Source.QUEUE ? readOwner(fields) : null;
        String clientRequestId = source == Source.QUEUE ? readClientRequestId(fields, requestId, owner) : null;
        EmbeddingFields embedding = EmbeddingFields.read(fields, task, source == Source.API);

        if (!errors.isEmpty()) {
            return new Outcome.Invalid(errors, Optional.ofNullable(requestId));
        }
        return new Outcome.Valid(new InferenceJob(requestId, task, prompt, maxTokens, temperature, topP, route,
                voice, priority, callbackUrl, ttlSeconds, submittedAt, language, speed, instructions, messages,
                seed, cache, batch, owner, clientRequestId, responseFormat,
                embedding == null ? null : embedding.input(),
                embedding == null ? null : embedding.dimensions(),
                embedding == null ? null : embedding.encodingFormat()));
    }

    /** A queue message's owner: absent is {@link Owner#QUEUE}'s job; present, one of the two forms an owner takes. */
    private static String readOwner(FieldReader fields) {
        Optional<String> owner = fields.string("owner");
        if (owner.isPresent() && !Owner.isValid(owner.get())) {
            fields.error("owner", ErrorCodes.INVALID_FORMAT, "owner must be sha256:<64 lower-case hex digits> or "
                    + "queue");
            return null;
        }
        return owner.orElse(null);
    }

    /**
     * The id a queue message's client knows its job by: present only with an owner, and only on the job stored under
     * the id derived from both ({@link JobIds}), so that no message can show a job to a client under another id.
     */
    private static String readClientRequestId(FieldReader fields, String requestId, String owner) {
        Optional<String> clientId = fields.string("clientRequestId");
        if (clientId.isEmpty()) {
            return null;
        }
        if (!isValidRequestId(clientId.get())) {
            fields.error("clientRequestId", ErrorCodes.INVALID_FORMAT, "clientRequestId must be a UUID version 4");
            return null;
        }
        String normalized = normalizeRequestId(clientId.get());
        if (owner == null || requestId == null || !JobIds.isStoredIdOf(requestId, new Owner(owner), normalized)) {
            fields.error("clientRequestId", ErrorCodes.INVALID_VALUE, "clientRequestId needs an owner, and the "
                    + "requestId derived from both (the id the router stores an API job under)");
            return null;
        }
        return normalized;
    }

    /**
     * {@code cache: true} only on a deterministic request ({@link CachePolicy}); judged once temperature and seed
     * are themselves valid, so one mistake is reported once.
     */
    private static Boolean readCache(FieldReader fields, List<FieldError> errors, Task task, double temperature,
                                     Integer seed) {
        Boolean cache = fields.bool("cache").orElse(null);
        boolean samplingValid = errors.stream().noneMatch(e -> e.field().equals("temperature")
                || e.field().equals("seed"));
        if (Boolean.TRUE.equals(cache) && samplingValid) {
            CachePolicy.nonDeterminism(task, temperature, seed).ifPresent(why -> fields.error("cache",
                    ErrorCodes.NOT_CACHEABLE, "cache: true needs a deterministic request, temperature 0 or an "
                            + "explicit seed, so that a cached answer is the one the model would give; this request "
                            + "has " + why));
        }
        return cache;
    }

    /**
     * The batch line a queue message's job is (written by the batch function). Only a well-formed membership whose
     * line id is the message's requestId is taken, so a message sent straight to a queue cannot count as a line of
     * another batch under its own id.
     */
    private static BatchMember readBatch(FieldReader fields, String requestId) {
        if (fields.isAbsent("batch")) {
            return null;
        }
        try {
            BatchMember member = JobJson.mapper().treeToValue(fields.node("batch"), BatchMember.class);
            if (member != null && (requestId == null || member.requestId().equals(requestId))) {
                return member;
            }
        } catch (JsonProcessingException | IllegalArgumentException e) {
            // reported below
        }
        fields.error("batch", ErrorCodes.INVALID_VALUE, "batch must be {batchId, chunk, line, chunkLines} naming "
                + "the line whose job id is the requestId");
        return null;
    }

    /** True when {@code id} is a UUID version 4 in any letter case. */
    public static boolean isValidRequestId(String id) {
        return id != null && UUID_V4.matcher(id).matches();
    }

    /** The canonical (lower-case) form of a valid request id; S3 keys are case-sensitive, ids are not. */
    public static String normalizeRequestId(String id) {
        return id.toLowerCase(Locale.ROOT);
    }

    private String readRequestId(FieldReader fields, Source source) {
        Optional<String> raw = fields.string("requestId");
        if (raw.isPresent()) {
            if (isValidRequestId(raw.get())) {
                return normalizeRequestId(raw.get());
            }
            fields.error("requestId", ErrorCodes.INVALID_FORMAT, "requestId must be a UUID version 4");
            return null;
        }
        if (fields.isAbsent("requestId") && source == Source.API) {
            return idGenerator.get().toString();
        }
        if (fields.isAbsent("requestId")) {
            fields.error("requestId", ErrorCodes.REQUIRED, "requestId is required");
        }
        return null;
    }

    private static String readPrompt(FieldReader fields) {
        Optional<String> prompt = fields.string("prompt");
        if (fields.isAbsent("prompt")) {
            fields.error("prompt", ErrorCodes.REQUIRED, "prompt is required (or messages, for a chat job)");
        } else if (prompt.isPresent() && prompt.get().isBlank()) {
            fields.error("prompt", ErrorCodes.REQUIRED, "prompt must not be empty or whitespace");
        } else if (prompt.isPresent() && prompt.get().length() > MAX_PROMPT_CHARS) {
            fields.error("prompt", ErrorCodes.TOO_LONG, "prompt must be at most " + MAX_PROMPT_CHARS
                    + " characters, got " + prompt.get().length());
        } else {
            return prompt.orElse(null);
        }
        return null;
    }

    /** A configured tier that serves {@code task}; naming one that cannot is the client's mistake (400 on route). */
    private Tier readRoute(FieldReader fields, Task task) {
        Tier route = fields.enumValue("route", tiers::find, tiers.describeNames()).orElse(null);
        Optional<String> refusal = route == null ? Optional.empty() : tiers.refusal(route, task);
        refusal.ifPresent(why -> fields.error("route", ErrorCodes.INVALID_VALUE, "route " + why));
        return refusal.isPresent() ? null : route;
    }

    private static String readVoice(FieldReader fields, Task task) {
        Optional<String> voice = fields.string("voice");
        if (voice.isEmpty()) {
            return null;
        }
        if (task != Task.SPEECH) {
            fields.error("voice", ErrorCodes.NOT_APPLICABLE, "voice applies only to task \"speech\"");
        } else if (voice.get().isBlank() || voice.get().length() > MAX_VOICE_CHARS) {
            fields.error("voice", ErrorCodes.INVALID_VALUE, "voice must be 1 to " + MAX_VOICE_CHARS
                    + " non-blank characters");
        }
        return voice.get();
    }

    /** False (and a not_applicable error when the field is given) unless {@code task} is speech. */
    private static boolean speechOnly(FieldReader fields, Task task, String field) {
        return onlyFor(fields, task, Task.SPEECH, field);
    }

    /** False (and a not_applicable error when the field is given) unless {@code task} is {@code only}. */
    private static boolean onlyFor(FieldReader fields, Task task, Task only, String field) {
        if (fields.isAbsent(field)) {
            return false;
        }
        if (task != only) {
            fields.error(field, ErrorCodes.NOT_APPLICABLE, field + " applies only to task \"" + only.wireName()
                    + "\"");
            return false;
        }
        return true;
    }

    private static String readLanguage(FieldReader fields, Task task) {
        if (!speechOnly(fields, task, "language")) {
            return null;
        }
        Optional<String> language = fields.string("language");
        if (language.isEmpty()) {
            return null;
        }
        Optional<String> known = SPEECH_LANGUAGES.stream().filter(l -> l.equalsIgnoreCase(language.get().trim()))
                .findFirst();
        if (known.isEmpty()) {
            fields.error("language", ErrorCodes.INVALID_VALUE, "language must be one of " + SPEECH_LANGUAGES
                    + ", got \"" + language.get() + "\"");
        }
        return known.orElse(null);
    }

    private static String readInstructions(FieldReader fields, Task task) {
        if (!speechOnly(fields, task, "instructions")) {
            return null;
        }
        Optional<String> instructions = fields.string("instructions");
        if (instructions.isPresent() && instructions.get().length() > MAX_INSTRUCTIONS_CHARS) {
            fields.error("instructions", ErrorCodes.TOO_LONG, "instructions must be at most "
                    + MAX_INSTRUCTIONS_CHARS + " characters, got " + instructions.get().length());
            return null;
        }
        return instructions.filter(text -> !text.isBlank()).orElse(null);
    }

    private static String readCallbackUrl(FieldReader fields) {
        Optional<String> url = fields.string("callbackUrl");
        if (url.isEmpty()) {
            return null;
        }
        Optional<FieldError> refused = checkCallbackUrl("callbackUrl", url.get());
        refused.ifPresent(e -> fields.error(e.field(), e.code(), e.message()));
        return refused.map(e -> ErrorCodes.TOO_LONG.equals(e.code()) ? null : url.get()).orElse(url.get());
    }

    /**
     * The submission-time rule for a callback URL (length, syntax, target policy without DNS), reported as an error
     * on {@code field}; empty when the URL may be used. Job requests and batch requests both use it.
     */
    public static Optional<FieldError> checkCallbackUrl(String field, String url) {
        if (url.length() > MAX_CALLBACK_URL_CHARS) {
            return Optional.of(new FieldError(field, ErrorCodes.TOO_LONG, field + " must be at most "
                    + MAX_CALLBACK_URL_CHARS + " characters"));
        }
        try {
            new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of(new FieldError(field, ErrorCodes.INVALID_FORMAT, field + " is not a valid URL"));
        }
        CallbackTargetPolicy.Verdict verdict = SUBMISSION_TARGETS.checkWithoutResolving(url);
        if (verdict instanceof CallbackTargetPolicy.Verdict.Refused refused) {
            return Optional.of(new FieldError(field, ErrorCodes.INVALID_VALUE, field + " is refused: "
                    + refused.reason() + " (an https URL to a public host is required; http only to localhost)"));
        }
        return Optional.empty();
    }

    private static Instant readSubmittedAt(FieldReader fields) {
        Optional<String> text = fields.string("submittedAt");
        if (text.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(text.get());
        } catch (DateTimeParseException e) {
            fields.error("submittedAt", ErrorCodes.INVALID_FORMAT, "submittedAt must be an ISO-8601 instant");
            return null;
        }
    }

    private static Outcome invalidBody(String code, String message) {
        return new Outcome.Invalid(List.of(new FieldError("body", code, message)), Optional.empty());
    }

    /** "a string", "an array", … for error messages. */
    public static String describe(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case BOOLEAN -> "a boolean";
            case NUMBER -> node.isIntegralNumber() ? "an integer" : "a decimal number";
            case STRING -> "a string";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
