package io.gpupipe.router;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.JobView;
import io.gpupipe.router.StatusOutcome.ResultLinks;
import java.time.Instant;

/**
 * A job as the API shows it ({@code GET /v1/jobs/{id}}, and a resubmission's 200): {@link JobView}'s status, the
 * marker's timestamps, the result once finished, presigned links to the result object (and WAV for speech, vectors
 * for an embedding job whose vectors are in their own object) and the
 * same objects' S3 URIs, for clients that read the bucket itself (the keys hold the job's stored id, not the
 * client's requestId).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobStatusResponse(
        String requestId,
        JobStatus status,
        Tier tier,
        Task task,
        Instant submittedAt,
        Instant updatedAt,
        Instant startedAt,
        JobResult result,
        String resultUrl,
        String audioUrl,
        String resultLocation,
        String audioLocation,
        String embeddingsUrl,
        String embeddingsLocation,
        Instant linksExpireAt,
        String statusUrl) {

    public static JobStatusResponse of(JobView view, ResultLinks links, String statusUrl) {
        JobState marker = view.marker();
        return new JobStatusResponse(view.requestId(), view.status(), view.tier(), view.task(),
                marker == null ? null : marker.submittedAt(), marker == null ? null : marker.updatedAt(),
                marker == null ? null : marker.startedAt(), view.result(),
                links.result() == null ? null : links.result().toString(),
                links.audio() == null ? null : links.audio().toString(), links.resultLocation(),
                links.audioLocation(), links.embeddings() == null ? null : links.embeddings().toString(),
                links.embeddingsLocation(), links.expiresAt(), statusUrl);
    }
}
