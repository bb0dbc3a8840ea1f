package io.gpupipe.notifier.domain;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.S3Uris;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobResult;
import java.time.Instant;
import java.util.Objects;

/**
 * The compact event sent when a result lands, to the SNS success or error topic and, byte for byte, to the job's
 * callback URL: who finished, how, and where the full result is ({@code s3://bucket/results/{id}.json}). It never
 * carries the model output, so it stays small and safe to fan out. {@code cached: true} marks a result answered from
 * the result cache (absent otherwise). {@code requestId} is the id the job's client knows it by, and {@code owner}
 * whose job it was (also an SNS message attribute, so subscribers can filter by caller).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResultEvent(
        String requestId,
        JobStatus status,
        Task task,
        Tier tier,
        String errorCode,
        String resultLocation,
        Instant completedAt,
        Boolean cached,
        String owner) {

    public ResultEvent {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(resultLocation, "resultLocation");
    }

    /** The event for {@code result}, stored at {@code key} in {@code bucket}. */
    public static ResultEvent of(JobResult result, String bucket, String key) {
        String errorCode = result.error() == null ? null : result.error().code();
        return new ResultEvent(result.visibleRequestId(), result.status(), result.task(), result.tier(), errorCode,
                S3Uris.of(bucket, key), result.timestamp(), result.isCached() ? Boolean.TRUE : null,
                result.owner());
    }

    /** Succeeded jobs go to the success topic, everything else to the error topic. */
    @JsonIgnore
    public boolean isSuccess() {
        return status == JobStatus.SUCCEEDED;
    }

    /** The JSON body sent to SNS and to the callback (the bytes that are signed). */
    public String toJson() {
        return JobJson.write(this);
    }
}
