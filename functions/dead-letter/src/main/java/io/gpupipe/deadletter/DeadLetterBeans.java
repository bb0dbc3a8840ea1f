package io.gpupipe.deadletter;

import io.gpupipe.adapters.JobResults;
import io.gpupipe.adapters.aws.DeploymentKeyConfig;
import io.gpupipe.adapters.aws.DeploymentKeys;
import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.model.seal.MessageSeal;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/** The job store (adapters module) over the Quarkus-managed S3 client. */
@Singleton
public class DeadLetterBeans {

    /** The seals of the deployment key, read once at start (the Secrets Manager client only when configured so). */
    @Produces
    @Singleton
    Optional<MessageSeal> messageSeals(DeploymentKeyConfig config, Instance<SecretsManagerClient> secrets) {
        return DeploymentKeys.seals(config, secrets::get);
    }

    @Produces
    @Singleton
    JobResults jobResults(S3Client s3, DeadLetterConfig config) {
        return new S3JobStore(s3, config.bucket());
    }
}
