package io.gpupipe.notifier;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;

/** Starts {@link SnsStandIn} with the success and error topics and points the Quarkus SNS client at it. */
public class SnsStandInResource implements QuarkusTestResourceLifecycleManager {
    public static final String SUCCESS_TOPIC = "arn:aws:sns:us-east-1:123456789012:gpupipe-results-succeeded";
    public static final String ERROR_TOPIC = "arn:aws:sns:us-east-1:123456789012:gpupipe-results-failed";

    private SnsStandIn sns;

    @Override
    public Map<String, String> start() {
        try {
            sns = new SnsStandIn(Set.of(SUCCESS_TOPIC, ERROR_TOPIC));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of(
                "quarkus.sns.endpoint-override", sns.endpoint().toString(),
                "gpupipe.notifier.success-topic-arn", SUCCESS_TOPIC,
                "gpupipe.notifier.error-topic-arn", ERROR_TOPIC);
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
