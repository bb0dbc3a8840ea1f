package io.gpupipe.model.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ModelServerHealthCheckTest {
    @Test
    void tolerating_shouldCoverTheWholeLoad_withinEcsLimits() {
        for (int minutes : new int[] {1, 5, 10, 20, 55}) {
            ModelServerHealthCheck check = ModelServerHealthCheck.tolerating(Duration.ofMinutes(minutes));
            long tolerated = check.startPeriod().toSeconds() + check.interval().toSeconds() * check.retries();
            assertThat(tolerated).as(minutes + " min").isGreaterThanOrEqualTo(minutes * 60L);
            assertThat(check.startPeriod()).isLessThanOrEqualTo(ModelServerHealthCheck.MAX_START_PERIOD);
            assertThat(check.interval()).isBetween(Duration.ofSeconds(30), ModelServerHealthCheck.MAX_INTERVAL);
            assertThat(check.retries()).isBetween(3, ModelServerHealthCheck.MAX_RETRIES);
        }
    }

    @Test
    void tolerating_shouldCheckEveryThirtySeconds_whenTenMinutes_andEveryNinety_whenTwenty() {
        // the catalogue's small and large tiers: a ready server waits up to one interval to be seen HEALTHY
        assertThat(ModelServerHealthCheck.tolerating(Duration.ofMinutes(10)).interval()).hasSeconds(30);
        assertThat(ModelServerHealthCheck.tolerating(Duration.ofMinutes(20)).interval()).hasSeconds(90);
    }

    @Test
    void tolerating_shouldRefuseALoadNoCheckCanCover() {
        assertThatThrownBy(() -> ModelServerHealthCheck.tolerating(Duration.ofMinutes(56)))
                .hasMessageContaining("1-55 minutes");
        assertThatThrownBy(() -> ModelServerHealthCheck.tolerating(Duration.ofSeconds(59)))
                .hasMessageContaining("1-55 minutes");
    }
}
