package io.gpupipe.worker;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.embedding.EmbeddingFields;
import io.gpupipe.model.embedding.EmbeddingResponse;
import io.gpupipe.model.embedding.VectorLength;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import java.util.List;
import java.util.Optional;

/**
 * An embedding job's output from its model's vectors: each shortened to the job's {@code dimensions}
 * ({@link VectorLength}) and written in its format, in OpenAI's shape; or, when the job asks for longer vectors than
 * the model makes, the job's refusal naming {@code dimensions}. Known only once the model answered (a tier's model is
 * the deployment's choice: the local stack's differs from AWS's), so it is a failed result, not a 400.
 */
public final class EmbeddingOutputs {
    /**
     * The largest embedding response (its JSON, in bytes) a result carries inline; above it the worker writes the
     * vectors to their own object ({@link JobLayout#embeddingsKey}) and the result names it. 256 KiB
     * keeps a status answer small (about 50 float vectors of 384 dimensions stay inline, a 256 x 384 job's 1.2 MB
     * do not), and a single sentence's vector still comes back in the answer itself.
     */
    public static final int INLINE_LIMIT_BYTES = 256 * 1024;

    private EmbeddingOutputs() {
    }

    /** The output, or the refusal; never both. */
    public record Outcome(Optional<JobResult.Output> output, Optional<JobResult.JobError> refusal) {
    }

    /** True when an embedding response of {@code jsonBytes} bytes stays inline in its result. */
    public static boolean fitsInline(long jsonBytes) {
        return jsonBytes <= INLINE_LIMIT_BYTES;
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
