package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class QueueWaitTest {
    private static final Instant SUBMITTED = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant SENT = Instant.parse("2026-01-01T00:00:02Z");

    @Test
    void submittedAt_shouldPreferTheJobsOwnTime_whenPresent() {
        assertThat(QueueWait.submittedAt(SUBMITTED, SENT)).isEqualTo(SUBMITTED);
    }

    @Test
    void submittedAt_shouldFallBackToSentTimestamp_whenJobHasNone() {
        assertThat(QueueWait.submittedAt(null, SENT)).isEqualTo(SENT);
    }

    @Test
    void millis_shouldBeTheTimeSinceSubmission() {
        assertThat(QueueWait.millis(SUBMITTED, SUBMITTED.plusMillis(1234))).isEqualTo(1234);
    }

    @Test
    void millis_shouldBeZero_whenClocksSkewBackwardsOrTimeUnknown() {
        assertThat(QueueWait.millis(SUBMITTED, SUBMITTED.minusMillis(50))).isZero();
        assertThat(QueueWait.millis(null, SUBMITTED)).isZero();
    }
}
