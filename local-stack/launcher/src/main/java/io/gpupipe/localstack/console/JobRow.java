package io.gpupipe.localstack.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.JobView;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One job as the console lists it: the status a client would read ({@link JobView}: the result wins over the
 * marker), the submit, start and result times, the cached and batch markers, and the start of its prompt.
 */
public record JobRow(String requestId, String status, String tier, String task, Instant submittedAt,
                     Instant startedAt, Instant finishedAt, boolean cached, String batchId, String errorCode,
                     String prompt, boolean audio, boolean requestSeen, List<String> notifications,
                     String traceId) {
    static final int PROMPT_EXCERPT = 160;

    /** The row of {@code entry} (held under {@link RecentJobs}'s lock). */
    static JobRow of(JobEntry entry) {
        Optional<JobView> view = JobView.of(entry.requestId, Optional.ofNullable(entry.marker),
                Optional.ofNullable(entry.result));
        JobState marker = entry.marker;
        JobResult result = entry.result;
        // seen only in the API's 202 so far: the API said queued
        String status = view.map(v -> v.status().wireName()).orElse(JobStatus.QUEUED.wireName());
        String tier = view.map(JobView::tier).map(Tier::wireName).orElse(entry.answeredTier);
        if (entry.promptExcerpt == null && entry.request != null) {
            entry.promptExcerpt = excerpt(entry.request);
        }
        Instant startedAt = marker != null && marker.startedAt() != null ? marker.startedAt() : startedAt(result);
        Instant submittedAt = marker != null && marker.submittedAt() != null ? marker.submittedAt()
                : submittedAt(result, startedAt).orElse(entry.firstSeenAt);
        return new JobRow(entry.shownId(), status, tier, view.map(v -> v.task() == null ? null
                : v.task().wireName()).orElse(null), submittedAt, startedAt,
                result == null ? null : result.timestamp(),
                result != null && result.isCached(), batchId(marker, result),
                result == null || result.error() == null ? null : result.error().code(), entry.promptExcerpt,
                entry.audio, entry.request != null, List.copyOf(entry.notifications),
                result == null ? null : result.traceId());
    }

    /** When the worker started: its result's time less its processing time (none for a cache hit). */
    private static Instant startedAt(JobResult result) {
        if (result == null || result.timestamp() == null || result.processingTimeMs() == null || result.isCached()) {
            return null;
        }
        return result.timestamp().minusMillis(result.processingTimeMs());
    }

    /** When it was submitted: the start less the time it waited on its queue, as the worker measured it. */
    private static Optional<Instant> submittedAt(JobResult result, Instant startedAt) {
        if (startedAt == null || result.queueWaitMs() == null) {
            return Optional.empty();
        }
        return Optional.of(startedAt.minusMillis(result.queueWaitMs()));
    }

    private static String batchId(JobState marker, JobResult result) {
        if (result != null && result.batch() != null) {
            return result.batch().batchId();
        }
        return marker != null && marker.batch() != null ? marker.batch().batchId() : null;
    }

    /** The prompt, or the last user message of a chat job, cut to {@link #PROMPT_EXCERPT} characters. */
    static String excerpt(byte[] request) {
        try {
            JsonNode job = JobJson.read(new String(request, StandardCharsets.UTF_8), JsonNode.class);
            String text = job.path("prompt").asText("");
            for (JsonNode message : job.path("messages")) {
                if ("user".equals(message.path("role").asText())) {
                    text = message.path("content").asText("");
                }
            }
            return text.length() <= PROMPT_EXCERPT ? text : text.substring(0, PROMPT_EXCERPT - 1) + "…";
        } catch (RuntimeException e) {
            return "";
        }
    }
}
