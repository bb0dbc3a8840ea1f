package io.gpupipe.localaws;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Starts {@link LocalAws} for a {@code @QuarkusTest} and points the Quarkus SQS/S3 clients at it. Init args:
 * {@code <tier>-visibility-seconds} for each catalogue tier (default 30), {@code max-receive-count}. Test fields of
 * type {@link LocalAws} annotated {@link InjectLocalAws} receive the running instance.
 */
public class LocalAwsTestResource implements QuarkusTestResourceLifecycleManager {
    private LocalAws aws;
    private LocalAwsOptions options = LocalAwsOptions.defaults();

    @Override
    public void init(Map<String, String> initArgs) {
        Map<Tier, Integer> visibility = new LinkedHashMap<>();
        for (Tier tier : TierCatalogue.bundled().names()) {
            visibility.put(tier, Integer.parseInt(initArgs.getOrDefault(tier.wireName() + "-visibility-seconds",
                    "30")));
        }
        int maxReceive = Integer.parseInt(initArgs.getOrDefault("max-receive-count", "3"));
        options = LocalAwsOptions.defaults().withVisibilityTimeouts(visibility).withMaxReceiveCount(maxReceive);
    }

    @Override
    public Map<String, String> start() {
        aws = LocalAws.start(options);
        return aws.quarkusConfig();
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(aws, new TestInjector.AnnotatedAndMatchesType(InjectLocalAws.class,
                LocalAws.class));
    }

    @Override
    public void stop() {
        if (aws != null) {
            aws.close();
        }
    }
}
