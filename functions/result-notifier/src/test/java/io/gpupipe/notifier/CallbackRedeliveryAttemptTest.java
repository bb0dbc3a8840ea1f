package io.gpupipe.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.model.notify.CallbackSignature;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A redelivery from the callback-retry queue is one attempt, cancelled at {@code redelivery-attempt-timeout}, while a
 * first delivery keeps its {@code max-attempts}: against a receiver that accepts and never answers.
 */
class CallbackRedeliveryAttemptTest {
    private static final String ID = CallbackSignature.messageId("bucket", "550e8400-e29b-41d4-a716-446655440000");

    private LoopbackListener silent;

    @BeforeEach
    void listen() throws IOException {
        silent = new LoopbackListener();
    }

    @AfterEach
    void close() throws IOException {
        silent.close();
    }

    @Test
    void redeliver_shouldMakeOneAttemptCutAtItsTimeout_whenTheReceiverNeverAnswers() {
        // given: first deliveries wait up to 30 s for an answer; a redelivery attempt is cut at 300 ms
        CallbackSender sender = sender();
        String url = "http://localhost:" + silent.port() + "/hook";

        // when
        CallbackDelivery delivery = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> sender.redeliver(url, ID, "{}"));

        // then
        assertThat(delivery.status()).isEqualTo(CallbackDelivery.Status.FAILED);
        assertThat(delivery.attempts()).isEqualTo(1);
        assertThat(silent.connections()).isEqualTo(1);
        assertThat(sender.worthRedelivering(delivery)).isTrue();
    }

    private static CallbackSender sender() {
        Map<String, String> properties = Map.of(
                "gpupipe.notifier.success-topic-arn", "arn:aws:sns:us-east-1:123456789012:ok",
                "gpupipe.notifier.error-topic-arn", "arn:aws:sns:us-east-1:123456789012:failed",
                "gpupipe.notifier.allowed-callback-hosts", "localhost",
                "gpupipe.notifier.callback.request-timeout", "30s",
                "gpupipe.notifier.callback.redelivery-attempt-timeout", "300ms");
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(NotifierConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 500)).build();
        return new CallbackSender(config.getConfigMapping(NotifierConfig.class),
                new CallbackSecret(new CallbackSecretSetting.Plain("a-callback-secret-of-some-length"), arn -> {
                    throw new AssertionError("a plain secret is never read from Secrets Manager");
                }), Clock.systemUTC());
    }
}
