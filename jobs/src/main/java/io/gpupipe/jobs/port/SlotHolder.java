package io.gpupipe.jobs.port;

import java.time.Instant;

/** What a slot object holds: the stored id of the job that holds it, and when it was admitted (O(1) bytes). */
public record SlotHolder(String jobId, Instant admittedAt) {
    public SlotHolder {
        if (jobId == null || jobId.isBlank() || admittedAt == null) {
            throw new IllegalArgumentException("a slot names its job and when it was admitted");
        }
    }
}
