package io.gpupipe.repair;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;

/** Starts {@link SnsStandIn} with the alarm topic and points the Quarkus SNS client at it. */
public class SnsStandInResource implements QuarkusTestResourceLifecycleManager {
    public static final String ALARM_TOPIC = "arn:aws:sns:us-east-1:123456789012:gpupipe-alarms";

    private SnsStandIn sns;

    @Override
    public Map<String, String> start() {
        try {
            sns = new SnsStandIn(Set.of(ALARM_TOPIC));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of(
                "quarkus.sns.endpoint-override", sns.endpoint().toString(),
                "quarkus.sns.aws.region", "us-east-1",
                "quarkus.sns.aws.credentials.type", "static",
                "quarkus.sns.aws.credentials.static-provider.access-key-id", "test",
                "quarkus.sns.aws.credentials.static-provider.secret-access-key", "test",
                "gpupipe.repair.alarm-topic-arn", ALARM_TOPIC);
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(sns, new TestInjector.AnnotatedAndMatchesType(InjectSnsStandIn.class,
                SnsStandIn.class));
    }

    @Override
    public void stop() {
        if (sns != null) {
            sns.close();
        }
    }
}
