package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobState;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a delivered copy is a duplicate of another task's live run: plain Java. */
class RunningElsewhereTest {
    private static final Instant STARTED = Instant.parse("2026-12-04T07:00:00Z");
    private static final String OURS = "arn:aws:ecs:eu-west-1:123456789012:task/worker/ours";
    private static final String OTHER = "arn:aws:ecs:eu-west-1:123456789012:task/worker/other";
    private static final InferenceJob JOB = new InferenceJob("job-1", Task.GENERATE, "hello", 16, 0.0, 1.0, null, null,
            null, null, null, STARTED.minusSeconds(5));
    private static final JobState QUEUED = JobState.queued(JOB, Tier.of("small"), STARTED.minusSeconds(5));
    private static final JobState RUNNING_ELSEWHERE = QUEUED.running(OTHER, STARTED);
    // 4 calls of 20 s, visibility 30 s: a run started at STARTED is live until 110 s later
    private final RunningElsewhere rule = RunningElsewhere.of(Duration.ofSeconds(20), 4, Duration.ofSeconds(30));

    @Test
    void of_shouldAllowEveryModelCallPlusTheVisibilityTimeout() {
        assertThat(rule.freshFor()).isEqualTo(Duration.ofSeconds(110));
    }

    @Test
    void isDuplicate_shouldBeTrue_forAFirstDeliveryMeetingAnotherTasksFreshRun() {
        assertThat(rule.isDuplicate(RUNNING_ELSEWHERE, OURS, 1, STARTED)).isTrue();
        assertThat(rule.isDuplicate(RUNNING_ELSEWHERE, OURS, 1, STARTED.plusSeconds(110).minusMillis(1))).isTrue();
    }

    @Test
    void isDuplicate_shouldBeFalse_onceTheRunningMarkerIsStale() {
        // the task that wrote it died: the copy may take the job over
        assertThat(rule.isDuplicate(RUNNING_ELSEWHERE, OURS, 1, STARTED.plusSeconds(110))).isFalse();
    }

    @Test
    void isDuplicate_shouldBeFalse_forACopyDeliveredAgain() {
        // it may be the other task's own message, released after a failure or lapsed: deleting it would lose the job
        assertThat(rule.isDuplicate(RUNNING_ELSEWHERE, OURS, 2, STARTED.plusSeconds(1))).isFalse();
    }

    @Test
    void isDuplicate_shouldBeFalse_whenTheRunIsOursOrTheJobIsNotRunning() {
        assertThat(rule.isDuplicate(QUEUED.running(OURS, STARTED), OURS, 1, STARTED)).isFalse();
        assertThat(rule.isDuplicate(QUEUED, OURS, 1, STARTED)).isFalse();
        assertThat(rule.isDuplicate(QUEUED.cancelled(STARTED), OURS, 1, STARTED)).isFalse();
        assertThat(rule.isDuplicate(QUEUED.running(null, STARTED), OURS, 1, STARTED)).isFalse();
    }
}
