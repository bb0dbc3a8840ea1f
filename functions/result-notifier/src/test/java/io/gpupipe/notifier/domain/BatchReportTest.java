package io.gpupipe.notifier.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

class BatchReportTest {
    private static final RecordOutcome NOTIFIED = new RecordOutcome.Notified("results/a.json", "a", "succeeded",
            "m-1", CallbackDelivery.none());
    private static final RecordOutcome SKIPPED = new RecordOutcome.Skipped("results/b.json", "object is missing");
    private static final RecordOutcome TRANSIENT = new RecordOutcome.Failed("results/c.json", "SNS 503", true);
    private static final RecordOutcome PERMANENT = new RecordOutcome.Failed("results/d.json", "denied", false);

    @Test
    void shouldFailInvocation_shouldBeTrue_whenEveryRecordFailedRetryably() {
        assertThat(BatchReport.of(List.of(TRANSIENT)).shouldFailInvocation()).isTrue();
        assertThat(BatchReport.of(List.of(TRANSIENT, TRANSIENT)).shouldFailInvocation()).isTrue();
    }

    @Test
    void shouldFailInvocation_shouldBeFalse_whenAnyRecordSucceededOrWasSkipped() {
        // a retry would notify NOTIFIED twice, and SKIPPED can never succeed
        assertThat(BatchReport.of(List.of(NOTIFIED, TRANSIENT)).shouldFailInvocation()).isFalse();
        assertThat(BatchReport.of(List.of(SKIPPED, TRANSIENT)).shouldFailInvocation()).isFalse();
        assertThat(BatchReport.of(List.of(TRANSIENT, PERMANENT)).shouldFailInvocation()).isFalse();
        assertThat(BatchReport.of(List.of()).shouldFailInvocation()).isFalse();
    }

    @Test
    void of_shouldCountAndListEachRecord_inOrder() {
        // when
        BatchReport report = BatchReport.of(List.of(NOTIFIED, SKIPPED, TRANSIENT));

        // then
        assertThat(report.records()).isEqualTo(3);
        assertThat(report.notified()).isEqualTo(1);
        assertThat(report.skipped()).isEqualTo(1);
        assertThat(report.failed()).isEqualTo(1);
        assertThat(report.items()).extracting(BatchReport.Item::key, BatchReport.Item::outcome).containsExactly(
                tuple("results/a.json", "notified"),
                tuple("results/b.json", "skipped"),
                tuple("results/c.json", "failed"));
    }
}
