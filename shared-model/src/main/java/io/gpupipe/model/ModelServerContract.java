package io.gpupipe.model;

/** Which API a tier's model server speaks; branch on it with an exhaustive {@code switch}. */
public enum ModelServerContract {
    /** vLLM's OpenAI-compatible text API ({@code /v1/chat/completions}, {@code /v1/completions}). */
    TEXT,
    /** vLLM-Omni's {@code /v1/audio/speech} (Qwen3-TTS), seed 000. */
    SPEECH,
    /** vLLM's pooling runner ({@code vllm serve --runner pooling}): OpenAI's {@code /v1/embeddings}. */
    EMBEDDING;

    /** The tasks a model server with this contract can run. */
    public boolean canRun(Task task) {
        return switch (task) {
            case GENERATE -> this == TEXT;
            case SPEECH -> this == SPEECH;
            case EMBED -> this == EMBEDDING;
        };
    }
}
