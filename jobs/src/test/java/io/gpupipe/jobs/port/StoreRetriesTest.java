package io.gpupipe.jobs.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.retry.RetryPolicy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoreRetriesTest {

    @Test
    void fromEnvironment_shouldUseTheDefaults_whenNothingIsSet() {
        // when
        StoreRetries retries = StoreRetries.fromEnvironment(Map.of());
        // then
        assertThat(retries.conditionalConflicts()).isEqualTo(RetryPolicy.exponential(5, Duration.ofMillis(50),
                Duration.ofMillis(400)).withJitter(RetryPolicy.Jitter.EQUAL));
        assertThat(retries.changedBatches()).isEqualTo(RetryPolicy.immediate(5));
        assertThat(retries.changedMarkers()).isEqualTo(RetryPolicy.immediate(3));
    }

    @Test
    void fromEnvironment_shouldTakeEachSetting() {
        // when
        StoreRetries retries = StoreRetries.fromEnvironment(Map.of(StoreRetries.CONFLICT_ATTEMPTS, "8",
                StoreRetries.CONFLICT_BACKOFF_MS, "20", StoreRetries.CONFLICT_MAX_BACKOFF_MS, " 1000 ",
                StoreRetries.BATCH_UPDATE_ATTEMPTS, "9", StoreRetries.MARKER_CHANGE_ATTEMPTS, "2"));
        // then
        assertThat(retries.conditionalConflicts().maxAttempts()).isEqualTo(8);
        assertThat(retries.conditionalConflicts().firstDelay()).isEqualTo(Duration.ofMillis(20));
        assertThat(retries.conditionalConflicts().maxDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(retries.changedBatches().maxAttempts()).isEqualTo(9);
        assertThat(retries.changedMarkers().maxAttempts()).isEqualTo(2);
    }

    @Test
    void fromEnvironment_shouldNameTheVariable_whenItIsNoNumber() {
        assertThatThrownBy(() -> StoreRetries.fromEnvironment(Map.of(StoreRetries.CONFLICT_ATTEMPTS, "five")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("GPUPIPE_S3_CONFLICT_ATTEMPTS");
        assertThatThrownBy(() -> StoreRetries.fromEnvironment(Map.of(StoreRetries.MARKER_CHANGE_ATTEMPTS, "0")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
