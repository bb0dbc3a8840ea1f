package io.gpupipe.localaws.standin;

import io.gpupipe.localaws.LocalAws;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;

/**
 * Quarkus test resource: starts an {@link SnsStandIn} and points the Quarkus SNS client ({@code quarkus.sns.*}) at
 * it. Each init arg names a config property and the topic ARN it gets; those ARNs are the topics the stand-in knows:
 * <pre>{@code @WithTestResource(value = SnsStandInResource.class, initArgs = @ResourceArg(
 *         name = "gpupipe.repair.alarm-topic-arn", value = ALARM_TOPIC))}</pre>
 * Test fields annotated {@link InjectSnsStandIn} receive the stand-in.
 */
public class SnsStandInResource implements QuarkusTestResourceLifecycleManager {
    private final Map<String, String> topicProperties = new HashMap<>();
    private SnsStandIn sns;

    @Override
    public void init(Map<String, String> initArgs) {
        topicProperties.putAll(initArgs);
    }

    @Override
    public Map<String, String> start() {
        try {
            sns = new SnsStandIn(new HashSet<>(topicProperties.values()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> config = new HashMap<>(topicProperties);
        config.put("quarkus.sns.endpoint-override", sns.endpoint().toString());
        config.put("quarkus.sns.aws.region", LocalAws.REGION);
        config.put("quarkus.sns.aws.credentials.type", "static");
        config.put("quarkus.sns.aws.credentials.static-provider.access-key-id", "test");
        config.put("quarkus.sns.aws.credentials.static-provider.secret-access-key", "test");
        return config;
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
