package io.gpupipe.model.job;

import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.JobLimits;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.embedding.EmbeddingFields;
import io.gpupipe.model.format.ResponseFormat;
import io.gpupipe.model.format.ResponseFormatReader;
import io.gpupipe.model.owner.JobKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a job asks for (every field but who it is and when it was sent), read and judged alike from a client's
 * request ({@link JobRequestParser}) and from a tier-queue message ({@link QueuedJob}). Each problem is recorded in
 * the reader's error list, so a client learns every one at once.
 */
record JobFields(Task task, String prompt, List<ChatMessage> messages, int maxTokens, double temperature,
                 double topP, Tier route, String voice, Integer priority, String callbackUrl, Integer ttlSeconds,
                 String language, Double speed, String instructions, Integer seed, Boolean cache,
                 ResponseFormat responseFormat, EmbeddingFields embedding) {
    public static final int MIN_MAX_TOKENS = 1;
    public static final int MAX_MAX_TOKENS = 2048;
    public static final double MAX_TEMPERATURE = 2.0;
    public static final int MIN_TTL_SECONDS = 60;
    public static final int MAX_TTL_SECONDS = 86_400;
    /**
     * The largest {@code seed}: a non-negative 32-bit integer fits vLLM's {@code seed} (any 64-bit integer,
     * protocol.py {@code Field(None, ge=_LONG_INFO.min, le=_LONG_INFO.max)}) and llama.cpp's uint32 seed, whose
     * 0xFFFFFFFF ({@code LLAMA_DEFAULT_SEED}, -1 as a Java int) means "a random seed", which would not reproduce.
     */
    public static final int MAX_SEED = Integer.MAX_VALUE;

    /**
     * Reads the job's fields. {@code consumer} is the tier whose queue the message came from (null for a request): a
     * task it does not serve is a {@code task} error of code {@link ErrorCodes#NOT_SERVED}. {@code fromClient}
     * refuses the text fields on an embedding job, which every queue message carries at their defaults.
     */
    static JobFields read(FieldReader fields, TierCatalogue tiers, Tier consumer, boolean fromClient) {
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
        int errorsBeforeSampling = fields.errorCount();
        double temperature = fields.number("temperature", 0.0, MAX_TEMPERATURE)
                .orElse(InferenceJob.DEFAULT_TEMPERATURE);
        boolean temperatureValid = fields.errorCount() == errorsBeforeSampling;
        double topP = fields.number("topP", 0.0, 1.0).orElse(InferenceJob.DEFAULT_TOP_P);
        Tier route = readRoute(fields, tiers, task);
        String voice = SpeechFields.voice(fields, task);
        Integer priority = fields.integer("priority", Integer.MIN_VALUE, Integer.MAX_VALUE).orElse(null);
        String callbackUrl = CallbackUrls.read(fields);
        Integer ttlSeconds = fields.integer("ttlSeconds", MIN_TTL_SECONDS, MAX_TTL_SECONDS).orElse(null);
        String language = SpeechFields.language(fields, task);
        Double speed = SpeechFields.speed(fields, task);
        String instructions = SpeechFields.instructions(fields, task);
        int errorsBeforeSeed = fields.errorCount();
        Integer seed = fields.appliesTo("seed", task, Task.GENERATE)
                ? fields.integer("seed", 0, MAX_SEED).orElse(null) : null;
        boolean seedValid = fields.errorCount() == errorsBeforeSeed;
        Boolean cache = readCache(fields, task, temperature, seed, temperatureValid && seedValid);
        ResponseFormat responseFormat = ResponseFormatReader.read(fields, task);
        EmbeddingFields embedding = EmbeddingFields.read(fields, task, fromClient);
        return new JobFields(task, prompt, messages, maxTokens, temperature, topP, route, voice, priority,
                callbackUrl, ttlSeconds, language, speed, instructions, seed, cache, responseFormat, embedding);
    }

    /** The job of these fields under {@code key}, sent at {@code submittedAt}, as line {@code batch} (or none). */
    InferenceJob toJob(JobKey key, Instant submittedAt, BatchMember batch) {
        return new InferenceJob(key, task, prompt, maxTokens, temperature, topP, route, voice, priority, callbackUrl,
                ttlSeconds, submittedAt, language, speed, instructions, messages, seed, cache, batch, responseFormat,
                embedding == null ? null : embedding.input(), embedding == null ? null : embedding.dimensions(),
                embedding == null ? null : embedding.encodingFormat());
    }

    private static String readPrompt(FieldReader fields) {
        Optional<String> prompt = fields.string("prompt");
        if (fields.isAbsent("prompt")) {
            fields.error("prompt", ErrorCodes.REQUIRED, "prompt is required (or messages, for a chat job)");
        } else if (prompt.isPresent() && prompt.get().isBlank()) {
            fields.error("prompt", ErrorCodes.REQUIRED, "prompt must not be empty or whitespace");
        } else if (prompt.isPresent() && prompt.get().length() > JobLimits.MAX_PROMPT_CHARS) {
            fields.error("prompt", ErrorCodes.TOO_LONG, "prompt must be at most " + JobLimits.MAX_PROMPT_CHARS
                    + " characters, got " + prompt.get().length());
        } else {
            return prompt.orElse(null);
        }
        return null;
    }

    /** A configured tier that serves {@code task}; naming one that cannot is the client's mistake (400 on route). */
    private static Tier readRoute(FieldReader fields, TierCatalogue tiers, Task task) {
        Tier route = fields.enumValue("route", tiers::find, tiers.describeNames()).orElse(null);
        Optional<String> refusal = route == null ? Optional.empty() : tiers.refusal(route, task);
        refusal.ifPresent(why -> fields.error("route", ErrorCodes.INVALID_VALUE, "route " + why));
        return refusal.isPresent() ? null : route;
    }

    /**
     * {@code cache: true} only on a deterministic request ({@link Determinism}); judged once temperature and seed
     * are themselves valid ({@code samplingValid}), so one mistake is reported once.
     */
    private static Boolean readCache(FieldReader fields, Task task, double temperature, Integer seed,
                                     boolean samplingValid) {
        Boolean cache = fields.bool("cache").orElse(null);
        if (Boolean.TRUE.equals(cache) && samplingValid) {
            Determinism.whyNot(task, temperature, seed).ifPresent(why -> fields.error("cache",
                    ErrorCodes.NOT_CACHEABLE, "cache: true needs a deterministic request, temperature 0 or an "
                            + "explicit seed, so that a cached answer is the one the model would give; this request "
                            + "has " + why));
        }
        return cache;
    }
}
