package io.gpupipe.model;

/** Limits every job shares, whatever reads it (a job request, a batch line, an embedding job's texts). */
public final class JobLimits {
    /** The input limit: a prompt's characters, or the sum of a chat job's message contents. */
    public static final int MAX_PROMPT_CHARS = 100_000;

    private JobLimits() {
    }
}
