package io.gpupipe.router;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** Starts {@link BedrockConverseStandIn} and switches the router to the Bedrock classifier pointed at it. */
public class BedrockStandInResource implements QuarkusTestResourceLifecycleManager {
    static final String TIMEOUT = "1500ms";
    private BedrockConverseStandIn standIn;

    @Override
    public Map<String, String> start() {
        try {
            standIn = new BedrockConverseStandIn();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of(
                "gpupipe.router.classifier.type", "bedrock",
                "gpupipe.router.classifier.bedrock.endpoint-override", standIn.endpoint().toString(),
                "gpupipe.router.classifier.bedrock.region", "us-east-1",
                "gpupipe.router.classifier.bedrock.timeout", TIMEOUT);
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(standIn, new TestInjector.MatchesType(BedrockConverseStandIn.class));
    }

    @Override
    public void stop() {
        if (standIn != null) {
            standIn.close();
        }
    }
}
