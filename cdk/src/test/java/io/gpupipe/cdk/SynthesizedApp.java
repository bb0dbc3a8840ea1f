package io.gpupipe.cdk;

import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Template;

/**
 * The app as {@code GpupipeApp.main} builds it, synthesized once per test JVM (jsii start-up and synthesis take
 * seconds; every test class reads the same templates). Context: the defaults, except the small tier's model image
 * tag, to prove context reaches the task definition.
 */
final class SynthesizedApp {
    static final String SAM_STACK = "gpupipe";
    static final String SMALL_MODEL_TAG = "small-test-model-7";
    /** Test commits (any 40 hex digits; a deployment passes the ones native-build/models/*.env pins). */
    static final String SMALL_REVISION = "0123456789abcdef0123456789abcdef01234567";
    static final String LARGE_REVISION = "89abcdef0123456789abcdef0123456789abcdef";
    static final String SPEECH_REVISION = "fedcba9876543210fedcba9876543210fedcba98";
    /** Every tier's revision context, as .ci/run's CDK_CONTEXT_JSON passes it. */
    static final Map<String, String> REVISIONS = Map.of("smallModelRevision", SMALL_REVISION,
            "largeModelRevision", LARGE_REVISION, "speechModelRevision", SPEECH_REVISION);
    private static SynthesizedApp instance;

    final GpupipeApp.Stacks stacks;
    final Template network;
    final Template registry;
    final Template gpu;
    final Template monitoring;

    private SynthesizedApp() {
        App app = new App(AppProps.builder()
                .context(Map.of("smallModelImageTag", SMALL_MODEL_TAG, "smallModelRevision", SMALL_REVISION,
                        "largeModelRevision", LARGE_REVISION, "speechModelRevision", SPEECH_REVISION))
                .build());
        stacks = GpupipeApp.build(app);
        network = Template.fromStack(stacks.network());
        registry = Template.fromStack(stacks.registry());
        gpu = Template.fromStack(stacks.worker());
        monitoring = Template.fromStack(stacks.monitoring());
    }

    static synchronized SynthesizedApp get() {
        if (instance == null) {
            instance = new SynthesizedApp();
        }
        return instance;
    }
}
