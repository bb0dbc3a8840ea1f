package io.gpupipe.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.testsupport.CallbackReceiver;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The headers of a callback, with and without the deprecated X-Gpupipe pair ({@code callback.legacy-signature}). */
class CallbackSenderHeadersTest {
    private static final String SECRET = "a-callback-secret-of-some-length";
    private static final String ID = CallbackSignature.messageId("bucket", "550e8400-e29b-41d4-a716-446655440000");
    private static final String BODY = "{\"requestId\":\"550e8400-e29b-41d4-a716-446655440000\"}";

    private CallbackReceiver receiver;

    @BeforeEach
    void start() throws IOException {
        receiver = new CallbackReceiver();
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    @Test
    void send_shouldSignTheStandardWebhooksWayAndTheOldWay_byDefault() {
        CallbackDelivery delivery = sender(Map.of()).send(receiver.url("/hook"), ID, BODY);

        assertThat(delivery.status()).isEqualTo(CallbackDelivery.Status.DELIVERED);
        CallbackReceiver.Received call = receiver.received().get(0);
        assertThat(call.webhookId()).isEqualTo(ID);
        assertThat(call.verifiedBy(SECRET)).isTrue();
        assertThat(call.legacyVerifiedBy(SECRET)).isTrue();
    }

    @Test
    void send_shouldLeaveOutTheOldHeaders_whenLegacySignatureIsOff() {
        sender(Map.of("gpupipe.notifier.callback.legacy-signature", "false")).send(receiver.url("/hook"), ID, BODY);

        CallbackReceiver.Received call = receiver.received().get(0);
        assertThat(call.verifiedBy(SECRET)).isTrue();
        assertThat(call.headers()).containsKeys("webhook-id", "webhook-timestamp", "webhook-signature")
                .doesNotContainKeys("x-gpupipe-signature", "x-gpupipe-timestamp");
    }

    private static CallbackSender sender(Map<String, String> extra) {
        Map<String, String> properties = new HashMap<>(Map.of(
                "gpupipe.notifier.success-topic-arn", "arn:aws:sns:us-east-1:123456789012:ok",
                "gpupipe.notifier.error-topic-arn", "arn:aws:sns:us-east-1:123456789012:failed",
                "gpupipe.notifier.allowed-callback-hosts", "localhost"));
        properties.putAll(extra);
        // Quarkus's own Duration converter, so "2s" reads as it does in the function
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(NotifierConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 500)).build();
        return new CallbackSender(config.getConfigMapping(NotifierConfig.class),
                new CallbackSecret(new CallbackSecretSetting.Plain(SECRET), arn -> {
                    throw new AssertionError("a plain secret is never read from Secrets Manager");
                }), Clock.systemUTC());
    }
}
