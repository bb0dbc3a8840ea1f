package io.gpupipe.model.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.JobLimits;
import io.gpupipe.model.RequestIds;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.owner.JobKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The validator of job requests a client sends (the router's API, a batch's lines). It never throws for bad input:
 * it returns every problem at once, so a client can fix its request in one round trip. A request's job is of no
 * owner yet and known by the requestId it named (or one generated for it) as its {@code clientRequestId}, with no
 * stored id ({@link JobKey#requested}); the router then submits it as its caller's ({@link InferenceJob#submittedBy}),
 * a batch stores it as its line ({@link InferenceJob#withBatch}). Queue messages are read by {@link QueuedJob},
 * whose rules this parser applies too when asked for {@link Source#QUEUE}.
 */
public final class JobRequestParser {

    /** The input limit: a prompt's characters, or the sum of a chat job's message contents. */
    public static final int MAX_PROMPT_CHARS = JobLimits.MAX_PROMPT_CHARS;
    public static final int MIN_MAX_TOKENS = JobFields.MIN_MAX_TOKENS;
    public static final int MAX_MAX_TOKENS = JobFields.MAX_MAX_TOKENS;
    public static final double MAX_TEMPERATURE = JobFields.MAX_TEMPERATURE;
    public static final int MIN_TTL_SECONDS = JobFields.MIN_TTL_SECONDS;
    public static final int MAX_TTL_SECONDS = JobFields.MAX_TTL_SECONDS;
    public static final int MAX_SEED = JobFields.MAX_SEED;

    /** Where the JSON came from: the API may generate a requestId; a queue message must carry one. */
    public enum Source {
        /** Client request over HTTP: requestId generated when absent; submittedAt is set by the router. */
        API,
        /** Message body from a tier queue ({@link QueuedJob}): requestId required; submittedAt read when present. */
        QUEUE
    }

    /** Result of parsing: a valid job, or every field error (and the requestId when one could be read). */
    public sealed interface Outcome {
        /**
         * The request is valid; defaults applied and requestId normalised to lower case. {@code requestIdChosen}:
         * its sender named the requestId (false: the parser generated one, so no earlier job can have it).
         */
        record Valid(InferenceJob job, boolean requestIdChosen) implements Outcome {
            /** A job whose requestId its sender named (every queue message names its own). */
            public Valid(InferenceJob job) {
                this(job, true);
            }
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
        this.tiers = Objects.requireNonNull(tiers, "tiers");
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
        JsonBodies.Either body = JsonBodies.read(json);
        return body.failure().<Outcome>map(JobRequestParser::invalidBody)
                .orElseGet(() -> parse(body.object(), source));
    }

    /** Validates a parsed JSON document. Unknown fields are ignored. */
    public Outcome parse(JsonNode body, Source source) {
        if (source == Source.QUEUE) {
            return outcome(QueuedJob.read(body, tiers, consumer));
        }
        JsonBodies.Either object = JsonBodies.object(body);
        if (object.failure().isPresent()) {
            return invalidBody(object.failure().get());
        }
        var errors = new ArrayList<FieldError>();
        var fields = new FieldReader(body, errors);
        boolean requestIdChosen = !fields.isAbsent("requestId");
        String requestId = readRequestId(fields);
        // who a job belongs to, when it was sent and which batch it is a line of are never the client's to say
        JobFields job = JobFields.read(fields, tiers, consumer, true);
        if (!errors.isEmpty()) {
            return new Outcome.Invalid(errors, Optional.ofNullable(requestId));
        }
        return new Outcome.Valid(job.toJob(JobKey.requested(requestId), null, null), requestIdChosen);
    }

    /** The requestId the client chose (normalised), or a generated one when it chose none. */
    private String readRequestId(FieldReader fields) {
        Optional<String> raw = fields.string("requestId");
        if (raw.isPresent() && RequestIds.isValid(raw.get())) {
            return RequestIds.normalize(raw.get());
        }
        if (raw.isPresent()) {
            fields.error("requestId", ErrorCodes.INVALID_FORMAT, "requestId must be a UUID version 4");
            return null;
        }
        return fields.isAbsent("requestId") ? idGenerator.get().toString() : null;
    }

    private static Outcome outcome(QueuedJob read) {
        if (read instanceof QueuedJob.Malformed malformed) {
            return new Outcome.Invalid(malformed.errors(), malformed.requestId());
        }
        return new Outcome.Valid(((QueuedJob.Valid) read).job());
    }

    private static Outcome invalidBody(FieldError error) {
        return new Outcome.Invalid(List.of(error), Optional.empty());
    }
}
