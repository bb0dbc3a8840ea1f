package io.gpupipe.worker;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.backend.Generation;
import java.util.Optional;

/**
 * The worker's check of a text job's output against its response format. A model server that decodes under the
 * format (vLLM's structured outputs, llama.cpp's grammar) still ends an output early at maxTokens, and a server
 * without guided decoding may ignore the format: such an output fails the job, never retried (the same request
 * would be cut the same way), with the raw text kept in the result.
 */
final class FormatViolations {
    private FormatViolations() {
    }

    /** The error a job whose output does not take its format ends with; empty when it does or asks for none. */
    static Optional<JobResult.JobError> of(InferenceJob job, Generation generation) {
        if (job.responseFormat() == null) {
            return Optional.empty();
        }
        return job.responseFormat().violation(generation.text()).map(why -> JobResult.JobError.of(
                ErrorCodes.RESPONSE_FORMAT_VIOLATION, "the output does not take the response format "
                        + job.responseFormat().type().wireName() + ": " + why + ("length".equals(
                        generation.finishReason()) ? " (the model stopped at maxTokens " + job.maxTokens()
                        + "; the raw text is in result.text)" : " (the raw text is in result.text)")));
    }
}
