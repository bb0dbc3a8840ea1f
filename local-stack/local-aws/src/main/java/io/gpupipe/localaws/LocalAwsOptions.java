package io.gpupipe.localaws;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How to start {@link LocalAws}. Port 0 picks a free port; {@code dataDir} null keeps S3 objects in memory.
 * {@code tiers} says which tier queues exist; visibility timeouts default to the catalogue's (the real
 * deployment's); tests shorten them. {@code latency} is added in front of each endpoint ({@link AwsLatency#NONE}: the
 * emulators answer directly).
 */
public record LocalAwsOptions(String host, String advertisedHost, int sqsPort, int s3Port, Path dataDir,
                              int maxReceiveCount, TierCatalogue tiers, Map<Tier, Integer> visibilitySeconds,
                              AwsLatency latency) {

    public LocalAwsOptions {
        visibilitySeconds = Map.copyOf(visibilitySeconds);
        Objects.requireNonNull(latency, "latency");
    }

    public static LocalAwsOptions defaults() {
        return new LocalAwsOptions("127.0.0.1", "localhost", 0, 0, null, 3, TierCatalogue.bundled(), Map.of(),
                AwsLatency.NONE);
    }

    /** Every call to the S3 or SQS endpoint waits {@code added} first (a region's latency, locally). */
    public LocalAwsOptions withAwsLatency(AwsLatency added) {
        return new LocalAwsOptions(host, advertisedHost, sqsPort, s3Port, dataDir, maxReceiveCount, tiers,
                visibilitySeconds, added);
    }

    /** The visibility timeout of {@code tier}'s queue. */
    public int visibilitySeconds(TierDefinition tier) {
        return visibilitySeconds.getOrDefault(tier.tier(), (int) tier.visibilityTimeout().toSeconds());
    }

    public LocalAwsOptions withPorts(int sqs, int s3) {
        return new LocalAwsOptions(host, advertisedHost, sqs, s3, dataDir, maxReceiveCount, tiers, visibilitySeconds,
                latency);
    }

    public LocalAwsOptions withDataDir(Path dir) {
        return new LocalAwsOptions(host, advertisedHost, sqsPort, s3Port, dir, maxReceiveCount, tiers,
                visibilitySeconds, latency);
    }

    /** Another tier catalogue (a queue per tier). */
    public LocalAwsOptions withTiers(TierCatalogue catalogue) {
        return new LocalAwsOptions(host, advertisedHost, sqsPort, s3Port, dataDir, maxReceiveCount, catalogue,
                visibilitySeconds, latency);
    }

    /** The same visibility timeout for every tier's queue. */
    public LocalAwsOptions withVisibilityTimeouts(int seconds) {
        Map<Tier, Integer> each = new LinkedHashMap<>();
        tiers.names().forEach(t -> each.put(t, seconds));
        return withVisibilityTimeouts(each);
    }

    /** Visibility timeouts per tier; tiers not named keep the catalogue's. */
    public LocalAwsOptions withVisibilityTimeouts(Map<Tier, Integer> seconds) {
        return new LocalAwsOptions(host, advertisedHost, sqsPort, s3Port, dataDir, maxReceiveCount, tiers, seconds,
                latency);
    }

    public LocalAwsOptions withMaxReceiveCount(int count) {
        return new LocalAwsOptions(host, advertisedHost, sqsPort, s3Port, dataDir, count, tiers, visibilitySeconds,
                latency);
    }
}
