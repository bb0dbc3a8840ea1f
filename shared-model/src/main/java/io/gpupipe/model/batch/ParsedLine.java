package io.gpupipe.model.batch;

import io.gpupipe.model.job.InferenceJob;

/** What one line of a batch became: a job, or an error line. */
public sealed interface ParsedLine {
    int line();

    /** The line's custom_id; null when it had none that could be read. */
    String customId();

    record Job(int line, String customId, InferenceJob job) implements ParsedLine {
    }

    record Invalid(int line, String customId, LineError error) implements ParsedLine {
    }
}
