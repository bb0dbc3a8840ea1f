package io.gpupipe.scaling;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** Starts the ECS and CloudWatch stand-ins and points the function's plain SDK clients at them. */
public class AwsStandInsResource implements QuarkusTestResourceLifecycleManager {
    private EcsStandIn ecs;
    private CloudWatchStandIn cloudWatch;

    @Override
    public Map<String, String> start() {
        try {
            ecs = new EcsStandIn();
            cloudWatch = new CloudWatchStandIn();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of(
                "gpupipe.scaling.ecs-endpoint-override", ecs.endpoint().toString(),
                "gpupipe.scaling.cloudwatch-endpoint-override", cloudWatch.endpoint().toString());
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(ecs, new TestInjector.MatchesType(EcsStandIn.class));
        testInjector.injectIntoFields(cloudWatch, new TestInjector.MatchesType(CloudWatchStandIn.class));
    }

    @Override
    public void stop() {
        if (ecs != null) {
            ecs.close();
        }
        if (cloudWatch != null) {
            cloudWatch.close();
        }
    }
}
