package io.gpupipe.worker;

import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.retry.RetryPolicy;
import io.gpupipe.telemetry.Traces;
import io.gpupipe.worker.backend.ModelIdentity;
import io.gpupipe.worker.backend.SpeechAudio;
import io.gpupipe.worker.backend.Wav;
import io.gpupipe.worker.consumption.ModelFailure;
import io.opentelemetry.api.trace.Span;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;

/**
 * Writes what a delivery leaves in S3, each object create-only and as a "result write" span: the result JSON, and
 * before it the objects it names (speech audio, embeddings too large to inline). A write that loses to another
 * delivery's keeps that delivery's object, and the result describes it.
 */
final class ResultRecorder {
    private final WorkerSettings settings;
    private final WorkerJobStore store;
    private final JobSpans spans;
    private final Clock clock;

    ResultRecorder(WorkerSettings settings, WorkerJobStore store, JobSpans spans, Clock clock) {
        this.settings = settings;
        this.store = store;
        this.spans = spans;
        this.clock = clock;
    }

    /** The result, create-only; false when another delivery's result is there. */
    boolean write(JobResult result) {
        return spans.step(JobSpans.RESULT_WRITE_SPAN, () -> ResultWrites.persistently(writes(),
                "the result of " + result.requestId(), () -> store.putResultIfAbsent(result)),
                won -> won ? "written" : "exists");
    }

    /** The job's {@code failed} result for {@code failure}; false when another delivery's result is there. */
    boolean writeFailed(JobContext context, InferenceJob job, ModelFailure failure, ModelIdentity model) {
        return writeFailed(context, job, JobResult.JobError.of(failure.code(), failure.message()), model);
    }

    /** The job's {@code failed} result with {@code error}; false when another delivery's result is there. */
    boolean writeFailed(JobContext context, InferenceJob job, JobResult.JobError error, ModelIdentity model) {
        JobResult failed = JobResult.failed(job, error,
                context.provenance(settings.tier(), model, settings.taskArn(), clock), clock.instant())
                .withTrace(Traces.of(Span.current()).orElse(null));
        return write(failed);
    }

    /** Writes the WAV create-only; if another delivery's audio is there, the output describes that file. */
    JobResult.Output audio(String requestId, SpeechAudio audio) {
        String key = JobLayout.audioKey(requestId);
        if (!spans.step(JobSpans.RESULT_WRITE_SPAN, () -> ResultWrites.persistently(writes(),
                "the audio of " + requestId, () -> store.putAudioIfAbsent(requestId, audio.wav())),
                won -> won ? "audio written" : "audio exists")) {
            Optional<Wav.Info> stored = store.readAudioHead(requestId, 4096).flatMap(Wav::parse);
            if (stored.isPresent() && stored.get().dataBytes() >= 0) {
                return JobResult.Output.audio(key, "wav", stored.get().sampleRate(),
                        stored.get().declaredDurationMs());
            }
        }
        return JobResult.Output.audio(key, "wav", audio.sampleRate(), audio.durationMs());
    }

    /**
     * Keeps vectors over {@link EmbeddingOutputs#INLINE_LIMIT_BYTES} in their own object, written create-only before
     * the result that names it (as speech audio is); smaller ones stay inline.
     */
    JobResult.Output embeddings(String requestId, JobResult.Output inline) {
        byte[] json = JobJson.write(inline.embeddings()).getBytes(StandardCharsets.UTF_8);
        if (EmbeddingOutputs.fitsInline(json.length)) {
            return inline;
        }
        spans.step(JobSpans.RESULT_WRITE_SPAN, () -> ResultWrites.persistently(writes(),
                "the embeddings of " + requestId,
                () -> store.putEmbeddingsIfAbsent(requestId, json)), won -> won ? "embeddings written"
                : "embeddings exist");
        return inline.withEmbeddingsAt(JobLayout.embeddingsKey(requestId));
    }

    private RetryPolicy writes() {
        return settings.retries().resultWrites();
    }
}
