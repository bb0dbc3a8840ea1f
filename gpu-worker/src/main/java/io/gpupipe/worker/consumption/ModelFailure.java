package io.gpupipe.worker.consumption;

import io.gpupipe.model.ErrorCodes;
import java.time.Duration;

/**
 * Why one call to the model server failed, classified once: the job-level error code it becomes in a
 * {@code failed} result, a readable message, and whether calling again may help.
 */
public record ModelFailure(String code, String message, boolean retryable) {

    public ModelFailure {
        if (code == null || message == null) {
            throw new IllegalArgumentException("code and message are required");
        }
    }

    /**
     * An HTTP error answer. 408, 429 and 5xx are transient (overload, restart, a crashed engine step) and worth a
     * retry; 503 means the model is not serving yet. Other 4xx mean the server rejects this request and will keep
     * rejecting it; a 400 about the context length (prompt plus max_tokens beyond vLLM's max_model_len) is
     * {@code prompt_too_long}.
     */
    public static ModelFailure httpStatus(int status, String detail) {
        String message = "model server answered HTTP " + status + (detail == null || detail.isBlank() ? ""
                : ": " + abbreviate(detail));
        if (status == 503) {
            return new ModelFailure(ErrorCodes.MODEL_UNAVAILABLE, message, true);
        }
        if (status == 400 && isContextLengthRejection(detail)) {
            return new ModelFailure(ErrorCodes.PROMPT_TOO_LONG, message, false);
        }
        boolean transientStatus = status == 408 || status == 429 || status >= 500;
        return new ModelFailure(ErrorCodes.MODEL_ERROR, message, transientStatus);
    }

    /** The server could not be reached (connection refused or reset): it may be restarting. */
    public static ModelFailure unreachable(String detail) {
        return new ModelFailure(ErrorCodes.MODEL_UNAVAILABLE, "model server unreachable: " + abbreviate(detail), true);
    }

    /** The call did not finish within its share of the job's time budget. */
    public static ModelFailure timeout(Duration after) {
        return new ModelFailure(ErrorCodes.MODEL_TIMEOUT, "no answer from the model within " + after.toMillis()
                + " ms", true);
    }

    /** The worker has no model for this task (e.g. no GGUF configured): retrying cannot help. */
    public static ModelFailure notConfigured(String message) {
        return new ModelFailure(ErrorCodes.MODEL_UNAVAILABLE, message, false);
    }

    /** The model itself failed on this input in a way that will repeat. */
    public static ModelFailure permanent(String message) {
        return new ModelFailure(ErrorCodes.MODEL_ERROR, message, false);
    }

    /**
     * vLLM's wordings of a context-length rejection (a 400 BadRequestError): the OpenAI server's input check
     * ("'max_tokens' or 'max_completion_tokens' is too large: N. This model's maximum context length is M tokens
     * and your request has P input tokens", or "This model's maximum context length is M tokens. However, you
     * requested ...") and the engine's ("The decoder prompt (length P) is longer than the maximum model length of
     * M"). vLLM sends no machine-readable code for it, so the message is all there is.
     */
    static boolean isContextLengthRejection(String detail) {
        return detail != null && (detail.contains("maximum context length") || detail.contains("maximum model length"));
    }

    private static String abbreviate(String text) {
        String oneLine = text == null ? "" : text.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= 300 ? oneLine : oneLine.substring(0, 297) + "...";
    }
}
