package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.adapters.QueueAttributes;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.retry.RetryPolicy;
import io.gpupipe.worker.support.WorkerConfigs;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How configuration and the queue's own attributes resolve into the consumer's settings. */
class WorkerSettingsTest {
    private static final QueueAttributes QUEUE = new QueueAttributes(Duration.ofSeconds(300), Optional.of(5),
            Optional.of("http://localhost/000000000000/gpupipe-dlq"));

    @Test
    void resolve_shouldBuildEachRetryLoopsPolicy_fromTheRetryKeys() {
        // when
        WorkerSettings settings = WorkerSettings.resolve(config(Map.of(
                "gpupipe.worker.retry.result-write-attempts", "6",
                "gpupipe.worker.retry.result-write-backoff", "100ms",
                "gpupipe.worker.retry.result-write-max-backoff", "3s",
                "gpupipe.worker.retry.delete-attempts", "3",
                "gpupipe.worker.retry.receive-backoff", "2s",
                "gpupipe.worker.retry.max-receive-backoff", "30s",
                "gpupipe.worker.retry.marker-attempts", "5")), QUEUE, "arn:task");
        // then
        WorkerRetries retries = settings.retries();
        assertThat(retries.resultWrites()).isEqualTo(RetryPolicy.exponential(6, Duration.ofMillis(100),
                Duration.ofSeconds(3)));
        assertThat(retries.deletes().maxAttempts()).isEqualTo(3);
        assertThat(retries.deletes().firstDelay()).isEqualTo(Duration.ofMillis(200));
        assertThat(retries.receives().maxAttempts()).as("the poller never gives up").isEqualTo(RetryPolicy.UNLIMITED);
        assertThat(retries.receives().firstDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(retries.receives().maxDelay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(retries.markerChanges()).isEqualTo(RetryPolicy.immediate(5));
    }

    @Test
    void resolve_shouldKeepTheRetryDefaults_whenNotConfigured() {
        WorkerRetries retries = WorkerSettings.resolve(config(Map.of()), QUEUE, "arn:task").retries();
        assertThat(retries.resultWrites()).isEqualTo(RetryPolicy.exponential(4, Duration.ofMillis(250),
                Duration.ofSeconds(2)));
        assertThat(retries.deletes()).isEqualTo(RetryPolicy.exponential(2, Duration.ofMillis(200),
                Duration.ofMillis(200)));
        assertThat(retries.receives().capAfter(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(retries.receives().capAfter(10)).isEqualTo(Duration.ofSeconds(20));
        assertThat(retries.markerChanges()).isEqualTo(RetryPolicy.immediate(3));
    }

    @Test
    void resolve_shouldTakeVisibilityAndReceiveLimitFromTheQueue_whenNotConfigured() {
        // when
        WorkerSettings settings = WorkerSettings.resolve(config(Map.of()), QUEUE, "arn:task");
        // then
        assertThat(settings.tier()).isEqualTo(Tier.of("small"));
        assertThat(settings.visibilityTimeout()).isEqualTo(Duration.ofSeconds(300));
        assertThat(settings.attempts().maxReceiveCount()).isEqualTo(5);
        assertThat(settings.heartbeat().interval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.heartbeat().extension()).isEqualTo(Duration.ofSeconds(300));
        // 16 server slots (the default) plus a quarter kept waiting inside the server (WindowSizing)
        assertThat(settings.windowSizing().serverSlots()).isEqualTo(16);
        assertThat(settings.maxInFlight()).isEqualTo(20);
        assertThat(settings.waitTime()).isEqualTo(Duration.ofSeconds(20));
        assertThat(settings.drainGrace()).isEqualTo(Duration.ofSeconds(100));
        assertThat(settings.modelTimeout()).isEqualTo(Duration.ofSeconds(300));
        assertThat(settings.adaptive()).hasValueSatisfying(a -> {
            assertThat(a.max()).isEqualTo(20);
            assertThat(a.waitingThreshold()).as("the headroom waits inside the server on purpose").isEqualTo(4);
        });
        assertThat(settings.taskArn()).isEqualTo("arn:task");
    }

    @Test
    void resolve_shouldSizeTheWindowFromTheModelServersSlots() {
        // the CDK app deploys the small tier's vLLM with --max-num-seqs 32: a window of 16 left half of it idle
        WorkerSettings settings = WorkerSettings.resolve(config(Map.of("gpupipe.worker.model-server-slots", "32")),
                QUEUE, "t");
        assertThat(settings.maxInFlight()).isEqualTo(40);
        assertThat(settings.adaptive()).hasValueSatisfying(a -> {
            assertThat(a.max()).isEqualTo(40);
            assertThat(a.waitingThreshold()).isEqualTo(8);
        });
        // an explicit window and threshold still win
        WorkerSettings explicit = WorkerSettings.resolve(config(Map.of("gpupipe.worker.model-server-slots", "32",
                "gpupipe.worker.max-in-flight", "12", "gpupipe.worker.adaptive.waiting-threshold", "1")), QUEUE, "t");
        assertThat(explicit.maxInFlight()).isEqualTo(12);
        assertThat(explicit.adaptive()).hasValueSatisfying(a -> assertThat(a.waitingThreshold()).isEqualTo(1));
    }

    @Test
    void withServerSlots_shouldResizeTheWindowAndTheAdaptiveThreshold() {
        WorkerSettings settings = WorkerSettings.resolve(config(Map.of()), QUEUE, "t").withServerSlots(64);
        assertThat(settings.maxInFlight()).isEqualTo(80);
        assertThat(settings.adaptive()).hasValueSatisfying(a -> {
            assertThat(a.max()).isEqualTo(80);
            assertThat(a.waitingThreshold()).isEqualTo(16);
        });
    }

    @Test
    void resolve_shouldUseTheLargeTiersModelTimeout_andConfiguredOverrides() {
        WorkerSettings settings = WorkerSettings.resolve(config(Map.of("gpupipe.worker.tier", "large",
                "gpupipe.worker.max-receive-count", "2", "gpupipe.worker.visibility-timeout", "60s",
                "gpupipe.worker.max-in-flight", "32", "gpupipe.worker.adaptive.enabled", "false")), QUEUE, "t");
        assertThat(settings.tier()).isEqualTo(Tier.of("large"));
        assertThat(settings.modelTimeout()).isEqualTo(Duration.ofSeconds(600));
        assertThat(settings.attempts().maxReceiveCount()).isEqualTo(2);
        assertThat(settings.visibilityTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(settings.heartbeat().interval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(settings.maxInFlight()).isEqualTo(32);
        assertThat(settings.adaptive()).isEmpty();
    }

    @Test
    void resolve_shouldTakeATiersModelTimeoutFromTheCatalogue_whenItIsNeitherSmallNorLarge() {
        // today's fallback gave every tier but "large" the small tier's timeout; a speech worker would not even start
        WorkerSettings speech = WorkerSettings.resolve(config(Map.of("gpupipe.worker.tier", "speech")), QUEUE, "t");
        assertThat(speech.tier().wireName()).isEqualTo("speech");
        assertThat(speech.modelTimeout()).isEqualTo(TierCatalogue.bundled().get(Tier.of("speech")).modelTimeout());

        TierCatalogue bundled = TierCatalogue.bundled();
        TierCatalogue withMedium = bundled.withTier(bundled.get(Tier.of("large")).renamed("medium")
                .withModelTimeout(Duration.ofSeconds(42)));
        WorkerSettings medium = WorkerSettings.resolve(config(Map.of("gpupipe.worker.tier", "medium")), QUEUE, "t",
                withMedium);
        assertThat(medium.modelTimeout()).isEqualTo(Duration.ofSeconds(42));
        assertThat(WorkerSettings.resolve(config(Map.of("gpupipe.worker.tier", "medium",
                "gpupipe.worker.model-timeout.medium", "7s")), QUEUE, "t", withMedium).modelTimeout())
                .isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void resolve_shouldRefuseATierTheCatalogueDoesNotHave() {
        assertThatThrownBy(() -> WorkerSettings.resolve(config(Map.of("gpupipe.worker.tier", "medium")), QUEUE, "t"))
                .hasMessage("unknown tier medium; configured tiers: small, large, speech, embed");
    }

    @Test
    void resolve_shouldFallBackToThreeAttempts_whenTheQueueHasNoRedrivePolicy() {
        var bare = new QueueAttributes(Duration.ofSeconds(30), Optional.empty(), Optional.empty());
        assertThat(WorkerSettings.resolve(config(Map.of()), bare, "t").attempts().maxReceiveCount()).isEqualTo(3);
    }

    @Test
    void resolve_shouldReject_aHeartbeatThatCannotKeepUpWithTheVisibilityTimeout() {
        assertThatThrownBy(() -> WorkerSettings.resolve(config(Map.of("gpupipe.worker.heartbeat.interval", "200s")),
                QUEUE, "t")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heartbeat");
    }

    @Test
    void resolve_shouldReject_aWaitTimeAboveTheSqsLimit() {
        assertThatThrownBy(() -> WorkerSettings.resolve(config(Map.of("gpupipe.worker.wait-time", "30s")), QUEUE,
                "t")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait-time");
    }

    private static WorkerConfig config(Map<String, String> overrides) {
        return WorkerConfigs.of(overrides);
    }
}
