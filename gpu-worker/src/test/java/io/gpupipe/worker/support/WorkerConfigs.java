package io.gpupipe.worker.support;

import io.gpupipe.worker.WorkerConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** A {@link WorkerConfig} mapped by SmallRye from properties, as the app maps its own (without starting Quarkus). */
public final class WorkerConfigs {
    private WorkerConfigs() {
    }

    /** A small-tier worker's required keys, overridden and extended by {@code overrides}. */
    public static WorkerConfig of(Map<String, String> overrides) {
        Map<String, String> values = new HashMap<>(Map.of("gpupipe.worker.tier", "small",
                "gpupipe.worker.queue-url", "http://localhost/000000000000/gpupipe-small",
                "gpupipe.worker.bucket", "gpupipe-results"));
        values.putAll(overrides);
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(WorkerConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter()) // Quarkus's "20s" syntax
                .withSources(new PropertiesConfigSource(values, "test", 500)).build();
        return config.getConfigMapping(WorkerConfig.class);
    }
}
