package io.gpupipe.cdk;

import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Template;

/**
 * The app as {@code GpupipeApp.main} builds it, synthesized once per test JVM (jsii start-up and synthesis take
 * seconds; every test class reads the same templates). Context: the defaults, except a small-tier maximum of 3 to
 * prove context reaches the scaling target.
 */
final class SynthesizedApp {
    static final String SAM_STACK = "gpupipe";
    static final int SMALL_MAX_TASKS = 3;
    private static SynthesizedApp instance;

    final GpupipeApp.Stacks stacks;
    final Template network;
    final Template registry;
    final Template gpu;
    final Template monitoring;

    private SynthesizedApp() {
        App app = new App(AppProps.builder()
                .context(Map.of("smallMaxTasks", Integer.toString(SMALL_MAX_TASKS)))
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
