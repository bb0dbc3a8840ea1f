package io.gpupipe.model.batch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.job.JobResult;
import java.util.Map;
import java.util.Optional;

/**
 * The output or error line of each ended line, in OpenAI's formats. Succeeded jobs go to the output file with status
 * 200 and the endpoint's response body (chat.completion, text_completion; for speech our own audio.speech object
 * naming the WAV's S3 key, as a JSONL line cannot carry audio). Everything else goes to the error file: refused
 * requests and failed jobs as HTTP answers ({@code response.body.error} with message, type, param and code, as
 * OpenAI writes them), lines that were no request, expired and cancelled lines as non-HTTP errors.
 */
public final class BatchOutputs {
    /** OpenAI's code for a line not run within the completion window. */
    public static final String BATCH_EXPIRED = "batch_expired";
    /** Ours, by analogy: a line not run because its batch was cancelled. */
    public static final String BATCH_CANCELLED = "batch_cancelled";
    public static final int OK = 200;
    public static final int BAD_REQUEST = 400;
    private static final int SERVER_ERROR = 500;
    /** The HTTP status a failed job answers with, by its error code; codes not listed are 500. */
    private static final Map<String, Integer> STATUS_OF_ERROR = Map.of(
            ErrorCodes.INVALID_REQUEST, BAD_REQUEST,
            ErrorCodes.PROMPT_TOO_LONG, BAD_REQUEST,
            // the request was valid, its output could not take the asked format (usually cut by max_tokens)
            ErrorCodes.RESPONSE_FORMAT_VIOLATION, 422,
            ErrorCodes.MODEL_UNAVAILABLE, 503,
            ErrorCodes.MODEL_TIMEOUT, 504);

    /** An ended line's line, and the file it belongs to. */
    public record Written(BatchLayout.File file, OutputLine line) {
    }

    private BatchOutputs() {
    }

    /**
     * The line of {@code entry} once it has ended, the one rule of the chunk's closer and of a running batch's
     * files: a line that never became a job, a job with its result ({@code result}, read when {@code outcome} has
     * one), or a job cancelled before it started. Empty while the line has not ended (or its result is not readable).
     */
    public static Optional<Written> ofEnded(String batchId, ChunkManifest.Entry entry, LineOutcome outcome,
                                            Optional<JobResult> result, BatchEndpoint endpoint) {
        if (entry.error() != null) {
            return Optional.of(ofInvalid(batchId, entry));
        }
        if (result.isPresent()) {
            return Optional.of(ofResult(batchId, entry, result.get(), endpoint));
        }
        if (outcome == LineOutcome.CANCELLED) {
            return Optional.of(ofCancelled(batchId, entry));
        }
        return Optional.empty();
    }

    /** A line whose job has its result. */
    public static Written ofResult(String batchId, ChunkManifest.Entry entry, JobResult result,
                                   BatchEndpoint endpoint) {
        String id = BatchIds.lineId(batchId, entry.line());
        if (result.status() == JobStatus.SUCCEEDED) {
            return new Written(BatchLayout.File.OUTPUT, new OutputLine(id, entry.customId(),
                    new OutputLine.Response(OK, result.requestId(), successBody(result, endpoint)), null));
        }
        JobResult.JobError error = result.error() == null ? JobResult.JobError.of(ErrorCodes.WORKER_ERROR,
                "the job failed without a reason") : result.error();
        if (ErrorCodes.EXPIRED.equals(error.code())) {
            return new Written(BatchLayout.File.ERRORS, new OutputLine(id, entry.customId(), null,
                    new OutputLine.Error(BATCH_EXPIRED, "the request could not be run before the batch's completion "
                            + "window ended: " + error.message())));
        }
        int status = STATUS_OF_ERROR.getOrDefault(error.code(), SERVER_ERROR);
        String param = error.fieldErrors().isEmpty() ? null : error.fieldErrors().get(0).field();
        return new Written(BatchLayout.File.ERRORS, new OutputLine(id, entry.customId(),
                new OutputLine.Response(status, result.requestId(), errorBody(error.message(), status, param,
                        error.code())), null));
    }

    /** A line that never became a job. */
    public static Written ofInvalid(String batchId, ChunkManifest.Entry entry) {
        LineError error = entry.error();
        String id = BatchIds.lineId(batchId, entry.line());
        if (!error.isRejectedRequest()) {
            return new Written(BatchLayout.File.ERRORS, new OutputLine(id, entry.customId(), null,
                    new OutputLine.Error(error.code(), "line " + entry.line() + ": " + error.message())));
        }
        FieldError first = error.fieldErrors().get(0);
        ObjectNode body = errorBody(first.message(), BAD_REQUEST, first.field(), first.code());
        body.set("errors", JobJson.mapper().valueToTree(error.fieldErrors()));
        return new Written(BatchLayout.File.ERRORS, new OutputLine(id, entry.customId(),
                new OutputLine.Response(BAD_REQUEST, null, body), null));
    }

    /** A line whose job was cancelled before it started. */
    public static Written ofCancelled(String batchId, ChunkManifest.Entry entry) {
        return new Written(BatchLayout.File.ERRORS, new OutputLine(BatchIds.lineId(batchId, entry.line()),
                entry.customId(), null, new OutputLine.Error(BATCH_CANCELLED,
                        "the batch was cancelled before this request started")));
    }

    private static ObjectNode successBody(JobResult result, BatchEndpoint endpoint) {
        ObjectNode body = JobJson.mapper().createObjectNode();
        JobResult.Output output = result.result();
        long created = result.timestamp() == null ? 0 : result.timestamp().getEpochSecond();
        switch (endpoint) {
            case CHAT_COMPLETIONS -> {
                body.put("id", "chatcmpl-" + result.requestId()).put("object", "chat.completion")
                        .put("created", created).put("model", result.model());
                ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
                // OpenAI's schema requires message.refusal and choice.logprobs (null: none asked for)
                choice.putObject("message").put("role", "assistant").put("content", output.text()).putNull("refusal");
                choice.putNull("logprobs").put("finish_reason", output.finishReason());
                usage(body, output);
            }
            case COMPLETIONS -> {
                body.put("id", "cmpl-" + result.requestId()).put("object", "text_completion")
                        .put("created", created).put("model", result.model());
                body.putArray("choices").addObject().put("index", 0).put("text", output.text()).putNull("logprobs")
                        .put("finish_reason", output.finishReason());
                usage(body, output);
            }
            case SPEECH -> body.put("object", "audio.speech").put("created", created).put("model", result.model())
                    .put("audio_file_id", output.audioKey()).put("format", output.format())
                    .put("sample_rate", output.sampleRate()).put("duration_ms", output.durationMs());
            case EMBEDDINGS -> {
                return JobJson.mapper().valueToTree(output.embeddings());
            }
        }
        return body;
    }

    private static void usage(ObjectNode body, JobResult.Output output) {
        if (output.usage() != null) {
            body.putObject("usage").put("prompt_tokens", output.usage().promptTokens())
                    .put("completion_tokens", output.usage().completionTokens())
                    .put("total_tokens", output.usage().totalTokens());
        }
    }

    /** OpenAI's error body: {@code {"error": {message, type, param, code}}}. */
    private static ObjectNode errorBody(String message, int status, String param, String code) {
        ObjectNode body = JobJson.mapper().createObjectNode();
        body.putObject("error").put("message", message)
                .put("type", status < SERVER_ERROR ? "invalid_request_error" : "server_error")
                .put("param", param).put("code", code);
        return body;
    }
}
