package io.gpupipe.model.batch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.format.ResponseFormatReader;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.JobRequestParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Turns one line of an OpenAI batch input file ({@code {custom_id, method, url, body}}, OpenAI API reference, "The
 * request input object") into a job, validated by the one job validator ({@link JobRequestParser}): the body's
 * OpenAI fields are mapped onto the job's (completions: prompt, max_tokens, temperature, top_p; chat: messages,
 * max_completion_tokens or max_tokens, temperature, top_p; both also response_format; speech: input, voice, speed,
 * language, instructions, response_format; embeddings: input, dimensions, encoding_format), and the validator's errors are named back with the body's parameter names. {@code model} picks
 * the tier when it names one, and is ignored otherwise (routing decides, as for any job).
 */
public final class BatchLineParser {
    public static final String CUSTOM_ID = "custom_id";
    /** The only format our workers write for speech (vLLM-Omni's default, {@code response_format: wav}). */
    public static final String SPEECH_FORMAT = "wav";
    /** A text line's {@code response_format} (OpenAI's chat parameter; vLLM's extension on completions). */
    private static final String RESPONSE_FORMAT = "response_format";
    private static final String RESPONSE_FORMAT_FIELD = ResponseFormatReader.FIELD;

    /** Our job field → the body parameter it came from, per endpoint (fields not listed keep their name). */
    private static final Map<BatchEndpoint, Map<String, String>> PARAMS = Map.of(
            BatchEndpoint.COMPLETIONS, Map.of("maxTokens", "max_tokens", "topP", "top_p", "route", "model",
                    RESPONSE_FORMAT_FIELD, RESPONSE_FORMAT),
            BatchEndpoint.CHAT_COMPLETIONS, Map.of("maxTokens", "max_tokens", "topP", "top_p", "route", "model",
                    "prompt", "messages", RESPONSE_FORMAT_FIELD, RESPONSE_FORMAT),
            BatchEndpoint.SPEECH, Map.of("prompt", "input", "route", "model"),
            BatchEndpoint.EMBEDDINGS, Map.of("encodingFormat", "encoding_format", "route", "model"));

    private final JobRequestParser validator;
    private final BatchEndpoint endpoint;
    private final String batchId;
    private final int ttlSeconds;
    private final IntFunction<BatchMember> members;

    /**
     * @param validator  the job validator (with the deployment's tier catalogue)
     * @param ttlSeconds each job's ttl: what is left of the batch's completion window
     * @param members    the batch membership of each line number
     */
    public BatchLineParser(JobRequestParser validator, BatchEndpoint endpoint, String batchId, int ttlSeconds,
                           IntFunction<BatchMember> members) {
        this.validator = validator;
        this.endpoint = endpoint;
        this.batchId = batchId;
        this.ttlSeconds = ttlSeconds;
        this.members = members;
    }

    /** Parses {@code line}; {@code duplicateOf} is the earlier line with the same custom_id, if any. */
    public ParsedLine parse(JsonlReader.Line line, Optional<Integer> duplicateOf) {
        int number = line.number();
        if (line instanceof JsonlReader.Line.TooLong) {
            return invalid(number, null, LineError.LINE_TOO_LONG, "the line is longer than "
                    + BatchLimits.MAX_LINE_BYTES + " bytes");
        }
        JsonNode request;
        try {
            request = JobJson.mapper().readTree(((JsonlReader.Line.Text) line).text());
        } catch (JsonProcessingException e) {
            return invalid(number, null, LineError.INVALID_JSON, "the line is not JSON: " + e.getOriginalMessage());
        }
        if (request == null || !request.isObject()) {
            return invalid(number, null, LineError.INVALID_LINE, "the line must be a JSON object {custom_id, method,"
                    + " url, body}");
        }
        JsonNode id = request.path(CUSTOM_ID);
        String customId = id.isTextual() ? id.textValue() : null;
        if (customId == null || customId.isEmpty() || customId.length() > BatchLimits.MAX_CUSTOM_ID_CHARS) {
            return invalid(number, customId, LineError.INVALID_CUSTOM_ID, "custom_id must be a string of 1 to "
                    + BatchLimits.MAX_CUSTOM_ID_CHARS + " characters");
        }
        if (duplicateOf.isPresent()) {
            return invalid(number, customId, LineError.DUPLICATE_CUSTOM_ID, "custom_id \"" + customId
                    + "\" is already used by line " + duplicateOf.get() + "; it must be unique in a batch");
        }
        if (!"POST".equals(request.path("method").asText(null))) {
            return invalid(number, customId, LineError.INVALID_METHOD, "method must be \"POST\"");
        }
        if (!endpoint.path().equals(request.path("url").asText(null))) {
            return invalid(number, customId, LineError.INVALID_URL, "url must be the batch's endpoint \""
                    + endpoint.path() + "\"");
        }
        JsonNode body = request.get("body");
        if (body == null || !body.isObject()) {
            return invalid(number, customId, LineError.INVALID_BODY, "body must be a JSON object");
        }
        return toJob(number, customId, (ObjectNode) body);
    }

    private ParsedLine toJob(int number, String customId, ObjectNode body) {
        ObjectNode job = JobJson.mapper().createObjectNode();
        job.put("task", endpoint.task().wireName());
        job.put("ttlSeconds", ttlSeconds);
        copy(body, "model", job, "route");
        switch (endpoint) {
            case COMPLETIONS -> {
                copy(body, "prompt", job, "prompt");
                copy(body, "max_tokens", job, "maxTokens");
            }
            case CHAT_COMPLETIONS -> {
                copy(body, "messages", job, "messages");
                copy(body, body.hasNonNull("max_completion_tokens") ? "max_completion_tokens" : "max_tokens", job,
                        "maxTokens");
            }
            case SPEECH -> {
                copy(body, "input", job, "prompt");
                copy(body, "voice", job, "voice");
                copy(body, "speed", job, "speed");
                copy(body, "language", job, "language");
                copy(body, "instructions", job, "instructions");
            }
            case EMBEDDINGS -> {
                copy(body, "input", job, "input");
                copy(body, "dimensions", job, "dimensions");
                copy(body, "encoding_format", job, "encodingFormat");
            }
        }
        if (endpoint.task() == Task.GENERATE) {
            copy(body, "temperature", job, "temperature");
            copy(body, "top_p", job, "topP");
            copy(body, RESPONSE_FORMAT, job, RESPONSE_FORMAT_FIELD);
        }
        if (!job.path("route").isTextual() || validator.tiers().find(job.path("route").textValue()).isEmpty()) {
            job.remove("route");
        }
        Map<String, String> params = new HashMap<>(PARAMS.get(endpoint));
        if (body.hasNonNull("max_completion_tokens")) {
            params.put("maxTokens", "max_completion_tokens");
        }
        Optional<FieldError> format = speechFormat(body);
        JobRequestParser.Outcome outcome = validator.parse(job, JobRequestParser.Source.API);
        if (outcome instanceof JobRequestParser.Outcome.Invalid invalid || format.isPresent()) {
            List<FieldError> errors = new ArrayList<>();
            format.ifPresent(errors::add);
            if (outcome instanceof JobRequestParser.Outcome.Invalid invalid) {
                invalid.errors().forEach(e -> errors.add(rename(e, params)));
            }
            return new ParsedLine.Invalid(number, customId, new LineError(LineError.INVALID_REQUEST,
                    errors.get(0).message(), errors));
        }
        return new ParsedLine.Job(number, customId,
                ((JobRequestParser.Outcome.Valid) outcome).job().withBatch(members.apply(number)));
    }

    /** Our workers write WAV only: any other requested format is the client's mistake, not a silent change. */
    private Optional<FieldError> speechFormat(ObjectNode body) {
        JsonNode format = body.get("response_format");
        if (endpoint != BatchEndpoint.SPEECH || format == null || format.isNull()
                || SPEECH_FORMAT.equals(format.asText(null))) {
            return Optional.empty();
        }
        return Optional.of(new FieldError("response_format", ErrorCodes.INVALID_VALUE,
                "response_format must be \"" + SPEECH_FORMAT + "\" (the only format the speech tier writes)"));
    }

    /** A validator error named with the body's parameter (messages that begin with the field name too). */
    private static FieldError rename(FieldError error, Map<String, String> params) {
        String field = error.field();
        int end = field.length();
        for (char separator : new char[] {'[', '.'}) {
            end = field.indexOf(separator) >= 0 ? Math.min(end, field.indexOf(separator)) : end;
        }
        String head = field.substring(0, end);
        String name = params.getOrDefault(head, head);
        String param = name + field.substring(head.length());
        String message = error.message().startsWith(head) ? name + error.message().substring(head.length())
                : error.message();
        if (ErrorCodes.REQUIRED.equals(error.code()) && "prompt".equals(head)) {
            message = param + " is required and must not be empty";
        }
        return new FieldError(param, error.code(), message);
    }

    private static void copy(JsonNode from, String field, ObjectNode to, String as) {
        JsonNode value = from.get(field);
        if (value != null && !value.isNull()) {
            to.set(as, value);
        }
    }

    private static ParsedLine invalid(int line, String customId, String code, String message) {
        return new ParsedLine.Invalid(line, customId, LineError.of(code, message));
    }
}
