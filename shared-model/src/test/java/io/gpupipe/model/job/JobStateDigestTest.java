package io.gpupipe.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The request digest a marker keeps, which tells a resubmission from another request reusing its requestId. */
class JobStateDigestTest {
    private static final String ID = "0b0f5b1e-8a43-4c1e-9d55-6a1f2f0c7e11";
    private static final Instant FIRST = Instant.parse("2026-12-01T10:00:00Z");

    private static InferenceJob job(String prompt, Instant submittedAt) {
        return new InferenceJob(ID, Task.GENERATE, prompt, 256, 0.7, 1.0, null, null, null, null, null, submittedAt);
    }

    @Test
    void describes_shouldMatchTheSameRequest_whenSubmittedLater() {
        JobState marker = JobState.queued(job("Hello", FIRST), Tier.of("small"), FIRST);

        assertThat(marker.describes(job("Hello", FIRST.plusSeconds(30)))).isTrue();
        assertThat(marker.requeued(FIRST.plusSeconds(30)).describes(job("Hello", null))).isTrue();
    }

    @Test
    void describes_shouldNotMatch_whenAnyRequestedFieldDiffers() {
        JobState marker = JobState.queued(job("Hello", FIRST), Tier.of("small"), FIRST);

        assertThat(marker.describes(job("Hello!", FIRST))).isFalse();
        assertThat(marker.describes(new InferenceJob(ID, Task.GENERATE, "Hello", 257, 0.7, 1.0, null, null, null,
                null, null, FIRST))).isFalse();
        assertThat(marker.describes(new InferenceJob(ID, Task.SPEECH, "Hello", 256, 0.7, 1.0, null, null, null,
                null, null, FIRST))).isFalse();
    }

    @Test
    void describes_shouldMatchNothing_whenTheMarkerHasNoDigest() {
        JobState legacy = new JobState(ID, JobStatus.QUEUED, Tier.of("small"), Task.GENERATE, FIRST, FIRST, null, null);

        assertThat(legacy.describes(job("Hello", FIRST))).isFalse();
    }

    @Test
    void digest_shouldSurviveTheMarkersJsonRoundTrip() {
        JobState marker = JobState.queued(job("Hello", FIRST), Tier.of("small"), FIRST);

        JobState read = JobJson.read(JobJson.write(marker), JobState.class);

        assertThat(read).isEqualTo(marker);
        assertThat(read.running("arn:task", FIRST.plusSeconds(5)).requestDigest()).isEqualTo(marker.requestDigest());
    }
}
