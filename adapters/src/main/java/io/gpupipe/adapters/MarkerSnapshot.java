package io.gpupipe.adapters;

import io.gpupipe.model.job.JobState;
import java.util.Optional;

/**
 * The job marker as read, with the ETag of the object it was read from: the version a conditional rewrite expects.
 * {@code state} is empty when there is no marker or it is unreadable; {@code eTag} is empty only when there is no
 * marker object at all (a job sent straight to the queue), so that a rewrite is then create-only.
 */
public record MarkerSnapshot(Optional<JobState> state, Optional<String> eTag) {
    public static final MarkerSnapshot ABSENT = new MarkerSnapshot(Optional.empty(), Optional.empty());

    public MarkerSnapshot {
        if (state.isPresent() && eTag.isEmpty()) {
            throw new IllegalArgumentException("a stored marker has an ETag");
        }
    }

    public static MarkerSnapshot of(JobState state, String eTag) {
        return new MarkerSnapshot(Optional.of(state), Optional.of(eTag));
    }
}
