package io.gpupipe.localstack.internal;

import java.util.Arrays;
import java.util.Optional;

/** The workers' inference backend (the worker's {@code gpupipe.worker.backend}). */
public enum Backend {
    /** FreeTTS speech and llama.cpp text inside the worker: no GPU, no model server. */
    EMBEDDED("embedded"),
    /** An OpenAI-compatible model server the user runs (vLLM, llama.cpp server, ...). */
    OPENAI("openai");

    private final String wireName;

    Backend(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<Backend> fromWireName(String name) {
        return Arrays.stream(values()).filter(b -> b.wireName.equals(name)).findFirst();
    }
}
