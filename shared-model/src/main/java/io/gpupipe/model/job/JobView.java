package io.gpupipe.model.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.owner.JobKey;
import java.util.Optional;

/**
 * What a client sees of a job: its current status, derived from the marker and the result. A result, once
 * written, wins over any marker (the marker may still say running when the result landed).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobView(String requestId, JobStatus status, Tier tier, Task task, JobState marker, JobResult result) {

    /** Empty when neither object exists: the job is unknown. */
    public static Optional<JobView> of(String requestId, Optional<JobState> marker, Optional<JobResult> result) {
        if (result.isPresent()) {
            JobResult r = result.get();
            Tier tier = r.tier() != null ? r.tier() : marker.map(JobState::tier).orElse(null);
            return Optional.of(new JobView(requestId, r.status(), tier, r.task(), marker.orElse(null), r));
        }
        return marker.map(m -> new JobView(requestId, m.status(), m.tier(), m.task(), m, null));
    }

    /**
     * The view of the job {@code key} names as its client is shown it: under the id the client chose, when it chose
     * one ({@link #seenAs}); empty when the job is unknown.
     */
    public static Optional<JobView> of(JobKey key, Optional<JobState> marker, Optional<JobResult> result) {
        return of(key.storedId(), marker, result).map(view -> key.clientRequestId() == null ? view
                : view.seenAs(key.clientRequestId()));
    }

    /** The owner the job's documents name (the result's, else the marker's); empty when neither names one. */
    public Optional<String> owner() {
        if (result != null && result.owner() != null) {
            return Optional.of(result.owner());
        }
        return Optional.ofNullable(marker == null ? null : marker.owner());
    }

    /** The view its client is shown: under the id it chose ({@code clientId}), the stored id kept out of sight. */
    public JobView seenAs(String clientId) {
        return new JobView(clientId, status, tier, task, marker, result == null ? null : result.seenAs(clientId));
    }
}
