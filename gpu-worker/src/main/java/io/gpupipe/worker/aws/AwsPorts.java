package io.gpupipe.worker.aws;

import io.gpupipe.adapters.CacheStore;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.adapters.aws.S3CacheStore;
import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.DeploymentKeyConfig;
import io.gpupipe.adapters.aws.DeploymentKeys;
import io.gpupipe.adapters.aws.SqsTierQueue;
import io.gpupipe.model.seal.MessageSeal;
import io.gpupipe.worker.WorkerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The worker's ports (adapters module) over the Quarkus-managed SQS and S3 clients. */
@ApplicationScoped
public class AwsPorts {

    @Produces
    @Singleton
    TierQueue jobQueue(SqsClient sqs, WorkerConfig config) {
        return new SqsTierQueue(sqs, config.queueUrl(), config.dlqUrl());
    }

    /**
     * The seals of the deployment key ({@link DeploymentKeys}), read once at start; the Secrets Manager client is
     * built only when the key is configured by secret.
     */
    @Produces
    @Singleton
    Optional<MessageSeal> messageSeals(DeploymentKeyConfig config, Instance<SecretsManagerClient> secrets) {
        return DeploymentKeys.seals(config, secrets::get);
    }

    @Produces
    @Singleton
    WorkerJobStore jobStore(S3Client s3, WorkerConfig config) {
        return new S3JobStore(s3, config.bucket());
    }

    @Produces
    @Singleton
    CacheStore cacheStore(S3Client s3, WorkerConfig config) {
        return new S3CacheStore(s3, config.bucket());
    }
}
