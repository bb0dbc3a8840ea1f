package io.gpupipe.model.embedding;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobResult;
import java.util.List;
import java.util.Optional;

/**
 * An embedding job's output from its model's vectors: each shortened to the job's {@code dimensions}
 * ({@link VectorLength}) and written in its format, in OpenAI's shape; or, when the job asks for longer vectors than
 * the model makes, the job's refusal naming {@code dimensions}. Known only once the model answered (a tier's model is
 * the deployment's choice: the local stack's differs from AWS's), so it is a failed result, not a 400.
 */
public final class EmbeddingOutputs {
    private EmbeddingOutputs() {
    }

    /** The output, or the refusal; never both. */
    public record Outcome(Optional<JobResult.Output> output, Optional<JobResult.JobError> refusal) {
    }

    public static Outcome of(EmbeddingFields job, List<float[]> vectors, String model, int promptTokens) {
        int nativeDimensions = vectors.isEmpty() ? 0 : vectors.get(0).length;
        Optional<String> refused = VectorLength.refusal(job.dimensions(), nativeDimensions);
        if (refused.isPresent()) {
            return new Outcome(Optional.empty(), Optional.of(new JobResult.JobError(ErrorCodes.INVALID_REQUEST,
                    refused.get(), List.of(new FieldError("dimensions", ErrorCodes.OUT_OF_RANGE, refused.get())))));
        }
        List<float[]> sized = vectors.stream().map(v -> VectorLength.reduce(v, job.dimensions())).toList();
        return new Outcome(Optional.of(JobResult.Output.embeddings(EmbeddingResponse.of(sized, job.format(), model,
                promptTokens))), Optional.empty());
    }
}
