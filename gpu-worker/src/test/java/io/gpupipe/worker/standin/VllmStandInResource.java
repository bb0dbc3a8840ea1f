package io.gpupipe.worker.standin;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.time.Duration;
import java.util.Map;

/**
 * Starts a {@link VllmStandIn} for a {@code @QuarkusTest} and points {@code quarkus.rest-client.vllm.url} at it.
 * Init args: {@code max-sequences}, {@code step-ms}, {@code api-key}, {@code ignore-eos}, {@code scheduling-policy}
 * (vLLM's default fcfs), {@code max-model-len}, {@code load-delay-ms} (connections refused while the model loads, as
 * vLLM's; the test may end it early with {@link VllmStandIn#finishLoading}). Fields annotated {@link InjectVllmStandIn}
 * receive the instance.
 */
public class VllmStandInResource implements QuarkusTestResourceLifecycleManager {
    private VllmStandIn.Settings settings = VllmStandIn.Settings.defaults();
    private VllmStandIn standIn;

    @Override
    public void init(Map<String, String> initArgs) {
        int sequences = Integer.parseInt(initArgs.getOrDefault("max-sequences", "8"));
        long stepMs = Long.parseLong(initArgs.getOrDefault("step-ms", "2"));
        settings = VllmStandIn.Settings.defaults().withMaxSequences(sequences)
                .withStep(Duration.ofMillis(stepMs), 0.01).withApiKey(initArgs.get("api-key"))
                .withIgnoreEos(Boolean.parseBoolean(initArgs.getOrDefault("ignore-eos", "false")))
                .withSchedulingPolicy(initArgs.getOrDefault("scheduling-policy", "fcfs"))
                .withMaxModelLen(Integer.parseInt(initArgs.getOrDefault("max-model-len", "4096")))
                .withLoadDelay(Duration.ofMillis(Long.parseLong(initArgs.getOrDefault("load-delay-ms", "0"))));
    }

    @Override
    public Map<String, String> start() {
        standIn = VllmStandIn.start(settings);
        return Map.of("quarkus.rest-client.vllm.url", standIn.url().toString());
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(standIn, new TestInjector.AnnotatedAndMatchesType(InjectVllmStandIn.class,
                VllmStandIn.class));
    }

    @Override
    public void stop() {
        if (standIn != null) {
            standIn.close();
        }
    }
}
