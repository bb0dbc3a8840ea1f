package io.gpupipe.router;

import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every router {@code @QuarkusTest} on the local SQS and S3 shares: the running {@link LocalAws} (each test
 * still declares {@code @WithTestResource(LocalAwsTestResource.class)}, so Quarkus sees the same resources and keeps
 * one app), and a {@link LocalAwsProbe} on it, opened on purged tier queues before each test and closed after it.
 */
abstract class LocalAwsProbeSetup {
    @InjectLocalAws
    LocalAws aws;

    LocalAwsProbe probe;

    @BeforeEach
    void openProbeOnPurgedTierQueues() {
        probe = new LocalAwsProbe(aws);
        probe.purgeTierQueues();
    }

    @AfterEach
    void closeProbe() {
        probe.close();
    }
}
