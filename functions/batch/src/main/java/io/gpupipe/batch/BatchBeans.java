package io.gpupipe.batch;

import io.gpupipe.adapters.BatchFiles;
import io.gpupipe.adapters.TierQueueUrls;
import io.gpupipe.adapters.aws.DeploymentKeyConfig;
import io.gpupipe.adapters.aws.DeploymentKeys;
import io.gpupipe.adapters.aws.S3BatchFiles;
import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.S3QuotaLedgers;
import io.gpupipe.adapters.aws.SqsBatchTasks;
import io.gpupipe.adapters.aws.SqsJobQueue;
import io.gpupipe.jobs.JobLifecycle;
import io.gpupipe.jobs.LineLedger;
import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.BatchTasks;
import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.quota.BatchLinesQuota;
import io.gpupipe.jobs.quota.OwnerQuotas;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.routing.Classifier;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.model.routing.RoutingThresholds;
import io.gpupipe.model.seal.MessageSeal;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Wires the job lifecycle ({@link JobLifecycle}) and the adapters the router uses (one implementation of each) from the Quarkus-managed
 * clients. Batch lines are routed by the router's {@link RoutingPolicy} with its default thresholds and the heuristic
 * classifier: no per-line Bedrock call. The producers of the stores and queues read as {@code RouterBeans}' do, on
 * purpose: what they build is the adapters module's (one class each); only where the bucket and queue URLs come from
 * differs (each function's own {@code @ConfigMapping}, STYLE rule 3).
 */
@Singleton
public class BatchBeans {

    @Produces
    @Singleton
    TierCatalogue tiers() {
        return TierCatalogue.bundled();
    }

    @Produces
    @Singleton
    RoutingPolicy routingPolicy(TierCatalogue tiers) {
        return new RoutingPolicy(RoutingThresholds.DEFAULTS, Classifier.heuristic(), tiers);
    }

    @Produces
    @Singleton
    JobStore jobStore(S3Client s3, S3Presigner presigner, BatchConfig config) {
        return new S3JobStore(s3, presigner, config.bucket());
    }

    /** The seals of the deployment key, read once at start (the Secrets Manager client only when configured so). */
    @Produces
    @Singleton
    Optional<MessageSeal> messageSeals(DeploymentKeyConfig config, Instance<SecretsManagerClient> secrets) {
        return DeploymentKeys.seals(config, secrets::get);
    }

    /** Each line's message is sealed: only a sealed message keeps the batch owner's owner at the worker. */
    @Produces
    @Singleton
    JobQueue jobQueue(SqsClient sqs, JobStore store, BatchConfig config, TierCatalogue tiers,
                      Optional<MessageSeal> seals) {
        return new SqsJobQueue(sqs, TierQueueUrls.of(tiers, config.tierQueueUrls(), "gpupipe.batch.tier-queue-urls"),
                config.maxMessageBytes(), store::putPayload, Optional::empty, seals);
    }

    /** The router's submit and cancel rules, without its fault hook, cache or per-caller limit. */
    @Produces
    @Singleton
    JobLifecycle jobLifecycle(JobStore store, JobQueue queue, Clock clock) {
        return JobLifecycle.of(store, queue, clock);
    }

    /** The per-caller cap on lines of unfinished batches, counted in the results bucket's ledgers. */
    @Produces
    @Singleton
    BatchLinesQuota batchLinesQuota(S3Client s3, BatchConfig config, BatchStore store, Clock clock) {
        return new BatchLinesQuota(new OwnerQuotas(new S3QuotaLedgers(s3, config.bucket()), clock,
                Duration.ofSeconds(5)), new OwnerQuotas.Limit(config.maxUnfinishedLines(), BatchLinesQuota.LIFETIME,
                8, Duration.ofSeconds(30)), store);
    }

    @Produces
    @Singleton
    BatchStore batchStore(S3Client s3, S3Presigner presigner, BatchConfig config) {
        return new S3BatchStore(s3, presigner, config.bucket());
    }

    @Produces
    @Singleton
    BatchFiles batchFiles(S3Client s3, BatchConfig config) {
        return new S3BatchFiles(s3, config.bucket());
    }

    @Produces
    @Singleton
    BatchTasks batchTasks(SqsClient sqs, BatchConfig config) {
        return new SqsBatchTasks(sqs, config.queueUrl());
    }

    @Produces
    @Singleton
    LineLedger lineLedger(BatchStore store, BatchTasks tasks) {
        return new LineLedger(store, tasks);
    }

    @Produces
    @Singleton
    BatchIo io(BatchConfig config) {
        return new BatchIo(config.concurrency());
    }

    void closeIo(@Disposes BatchIo io) {
        io.close();
    }
}
