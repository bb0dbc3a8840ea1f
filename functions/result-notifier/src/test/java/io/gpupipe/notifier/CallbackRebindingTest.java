package io.gpupipe.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.model.notify.HostResolver;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DNS rebinding between the target check and the connection: the check's look-up answers a public address, and the
 * name resolves to loopback for anyone who asks again. The callback must go to the address that was checked.
 */
class CallbackRebindingTest {
    private static final String SECRET = "a-callback-secret-of-some-length";
    private static final String ID = CallbackSignature.messageId("bucket", "550e8400-e29b-41d4-a716-446655440000");
    /** A public unicast address (TEST-NET-1) that nothing here answers on. */
    private static final byte[] CHECKED = {(byte) 192, 0, 2, 1};

    private LoopbackListener loopback;

    @BeforeEach
    void listenOnLoopback() throws IOException {
        loopback = new LoopbackListener();
    }

    @AfterEach
    void close() throws IOException {
        loopback.close();
    }

    @Test
    void send_shouldConnectToTheCheckedAddress_whenTheNameResolvesElsewhereAfterTheCheck() {
        // given: "localhost" (which the system resolves to loopback) passed the check as a public address
        HostResolver checkedAsPublic = host -> new InetAddress[] {InetAddress.getByAddress(host, CHECKED)};
        CallbackSender sender = sender(checkedAsPublic);

        // when
        CallbackDelivery delivery = sender.send("https://localhost:" + loopback.port() + "/hook", ID,
                "{}");

        // then: nothing reached loopback; the attempt went to 192.0.2.1, which does not answer
        assertThat(delivery.status()).isEqualTo(CallbackDelivery.Status.FAILED);
        assertThat(loopback.connections()).isZero();
    }

    private static CallbackSender sender(HostResolver resolver) {
        Map<String, String> properties = Map.of(
                "gpupipe.notifier.success-topic-arn", "arn:aws:sns:us-east-1:123456789012:ok",
                "gpupipe.notifier.error-topic-arn", "arn:aws:sns:us-east-1:123456789012:failed",
                "gpupipe.notifier.callback.max-attempts", "1",
                "gpupipe.notifier.callback.connect-timeout", "300ms");
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(NotifierConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 500)).build();
        return new CallbackSender(config.getConfigMapping(NotifierConfig.class),
                new CallbackSecret(new CallbackSecretSetting.Plain(SECRET), arn -> {
                    throw new AssertionError("a plain secret is never read from Secrets Manager");
                }), Clock.systemUTC(), resolver);
    }
}
