package io.gpupipe.cdk;

import java.util.Optional;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ecr.IRepository;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.kms.IKey;

/** What a {@link TierService} is built from. */
public record TierServiceProps(
        TierSpec spec,
        IVpc vpc,
        Cluster cluster,
        SamExports sam,
        IRepository workerRepository,
        String workerImageTag,
        IRepository modelServerRepository,
        Optional<IKey> resultsKey) {
}
