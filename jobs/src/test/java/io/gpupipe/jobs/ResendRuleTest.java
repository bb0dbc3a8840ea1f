package io.gpupipe.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobState;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Whether a resubmission sends a still-queued job again: plain Java, no store. */
class ResendRuleTest {
    private static final Instant SUBMITTED = Instant.parse("2026-12-04T07:00:00Z");
    private static final InferenceJob JOB = new InferenceJob("job-1", Task.GENERATE, "hello", 16, 0.0, 1.0, null, null,
            null, null, null, SUBMITTED);
    private static final JobState QUEUED = JobState.queued(JOB, Tier.of("small"), SUBMITTED);

    @Test
    void mayHaveBeenLost_shouldBeTrue_whenNoResubmissionEverSentACopy() {
        // the submission may have died between marker and send, however recent the marker is
        assertThat(ResendRule.mayHaveBeenLost(QUEUED, SUBMITTED)).isTrue();
        assertThat(ResendRule.mayHaveBeenLost(QUEUED, SUBMITTED.plusMillis(1))).isTrue();
    }

    @Test
    void mayHaveBeenLost_shouldHoldOnlyOnceTheIntervalAfterTheLastResendHasPassed() {
        // given a copy sent 10 s after submission
        Instant resent = SUBMITTED.plusSeconds(10);
        JobState requeued = QUEUED.requeued(resent);
        Duration interval = ResendRule.INTERVAL;

        // when, then
        assertThat(ResendRule.mayHaveBeenLost(requeued, resent)).isFalse();
        assertThat(ResendRule.mayHaveBeenLost(requeued, resent.plusSeconds(1))).isFalse();
        assertThat(ResendRule.mayHaveBeenLost(requeued, resent.plus(interval).minusMillis(1))).isFalse();
        assertThat(ResendRule.mayHaveBeenLost(requeued, resent.plus(interval))).isTrue();
        assertThat(ResendRule.mayHaveBeenLost(requeued, resent.plus(interval.multipliedBy(60)))).isTrue();
    }

    @Test
    void requeued_shouldRecordTheResend_andKeepTheSubmissionTime() {
        Instant resent = SUBMITTED.plus(Duration.ofMinutes(3));
        JobState requeued = QUEUED.requeued(resent);
        assertThat(requeued.resentAt()).isEqualTo(resent);
        assertThat(requeued.updatedAt()).isEqualTo(resent);
        assertThat(requeued.submittedAt()).isEqualTo(SUBMITTED);
        assertThat(QUEUED.resentAt()).isNull();
    }
}
