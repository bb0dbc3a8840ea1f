package io.gpupipe.worker.backend;

/** Generated text with token counts as the model server reports them. */
public record Generation(String text, int promptTokens, int completionTokens, String finishReason) {
}
