package io.gpupipe.router;

import io.gpupipe.adapters.TierQueueUrls;
import io.gpupipe.adapters.aws.DeploymentKeyConfig;
import io.gpupipe.adapters.aws.DeploymentKeys;
import io.gpupipe.adapters.aws.S3BatchFiles;
import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.adapters.aws.S3CacheStore;
import io.gpupipe.adapters.aws.S3JobSlots;
import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.S3QuotaLedgers;
import io.gpupipe.adapters.aws.S3UsageStore;
import io.gpupipe.adapters.aws.SqsBatchTasks;
import io.gpupipe.adapters.aws.SqsJobQueue;
import io.gpupipe.jobs.JobLifecycle;
import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.BatchTasks;
import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.quota.BatchLinesQuota;
import io.gpupipe.jobs.quota.JobQuota;
import io.gpupipe.jobs.quota.JobSlotQuota;
import io.gpupipe.jobs.quota.OwnerBatchQuota;
import io.gpupipe.jobs.quota.OwnerQuotas;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.owner.OwnerIdKeys;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.routing.Classifier;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.model.routing.RoutingThresholds;
import io.gpupipe.model.seal.DeploymentKeyVersions;
import io.gpupipe.model.seal.MessageSeal;
import io.gpupipe.model.usage.CostEstimate;
import io.gpupipe.router.aws.BedrockClients;
import io.gpupipe.router.aws.BedrockConverseClassifier;
import io.gpupipe.router.aws.LambdaTierWaker;
import io.gpupipe.router.internal.CallerRates;
import io.gpupipe.router.internal.FaultInjection;
import io.gpupipe.router.internal.RequestGate;
import io.gpupipe.router.internal.ResultCache;
import io.gpupipe.router.internal.RoutingMetrics;
import io.gpupipe.router.internal.StatusUrls;
import io.gpupipe.router.internal.SubmissionBudget;
import io.gpupipe.router.internal.SubmitTracing;
import io.gpupipe.router.internal.TokenBudget;
import io.gpupipe.router.internal.UploadGrants;
import io.gpupipe.router.wake.IdleTierWake;
import io.gpupipe.router.wake.WakingJobQueue;
import io.gpupipe.telemetry.Traces;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** Wires the plain-Java router (service, ports, policy) from the Quarkus-managed SQS/S3 clients and the config. */
@Singleton
public class RouterBeans {

    /** EMF lines go to stdout (looked up per line, so that a redirected System.out is honoured). */
    @Produces
    @Singleton
    RoutingMetrics routingMetrics(Clock clock, RouterConfig config) {
        return new RoutingMetrics(line -> System.out.println(line), clock, config.metricNamespace());
    }

    /** This instance's token bucket per caller (every request takes a token from its caller's). */
    @Produces
    @Singleton
    CallerRates callerRates(RouterConfig config, Clock clock) {
        return new CallerRates(config.rate().requestsPerSecond(), config.rate().burst(), CallerRates.MAX_CALLERS,
                clock);
    }

    /** One store for every role the router plays: submit, status and cancel ({@link JobStore}), cache hits. */
    @Produces
    @Singleton
    S3JobStore jobStore(S3Client s3, S3Presigner presigner, RouterConfig config) {
        return new S3JobStore(s3, presigner, config.bucket());
    }

    @Produces
    @Singleton
    TierCatalogue tiers() {
        return TierCatalogue.bundled();
    }

    /** The deployment key, read once at start (the Secrets Manager client only when configured so). */
    @Produces
    @Singleton
    Optional<DeploymentKeyVersions> deploymentKey(DeploymentKeyConfig config, Instance<SecretsManagerClient> secrets) {
        return DeploymentKeys.versions(config, secrets::get);
    }

    /** The seals of the deployment key: every job message the router sends carries one. */
    @Produces
    @Singleton
    Optional<MessageSeal> messageSeals(Optional<DeploymentKeyVersions> key) {
        return key.map(DeploymentKeyVersions::seal);
    }

    /** How callers' owner ids are derived: keyed with the deployment key (unkeyed only without one). */
    @Produces
    @Singleton
    OwnerIdKeys ownerIdKeys(Optional<DeploymentKeyVersions> key, RouterConfig config) {
        return key.map(k -> k.ownerIds(config.acceptUnkeyedOwnerIds()))
                .orElseGet(() -> OwnerIdKeys.only(OwnerIds.UNKEYED));
    }

    @Produces
    @Singleton
    JobQueue jobQueue(SqsClient sqs, JobStore store, RouterConfig config, TierCatalogue tiers, Clock clock,
                      Optional<MessageSeal> seals) {
        // each message carries the submit span's trace (traceparent + AWSTraceHeader), and its seal: only a sealed
        // message keeps the caller's owner at the worker
        JobQueue queues = new SqsJobQueue(sqs, queueUrls(tiers, config.queueUrls()), config.maxMessageBytes(),
                store::putPayload, () -> Traces.of(Span.current()), seals);
        // the first job of an idle tier wakes it at once (docs/cold-start.md); off without a function to invoke
        return config.wake().function().filter(f -> !f.isBlank())
                .<JobQueue>map(function -> new WakingJobQueue(queues, new IdleTierWake(
                        LambdaTierWaker.create(config.wake(), function), config.wake().awakeAfterSend(), clock)))
                .orElse(queues);
    }

    /** Each catalogue tier's queue URL; a tier without one (or a URL for no tier) stops the start-up. */
    static Map<Tier, String> queueUrls(TierCatalogue tiers, Map<String, String> configured) {
        return TierQueueUrls.of(tiers, configured, "gpupipe.router.queue-urls");
    }

    @Produces
    @Singleton
    ResultCache resultCache(S3Client s3, S3JobStore results, RouterConfig config, TierCatalogue tiers,
                            RoutingMetrics metrics, Clock clock) {
        return new ResultCache(new S3CacheStore(s3, config.bucket()), results, tiers,
                modelVersions(tiers, config.modelVersions()), metrics, clock);
    }

    /** The configured model version of each tier that has one; a key naming no catalogue tier stops the start-up. */
    static Map<Tier, String> modelVersions(TierCatalogue tiers, Map<String, String> configured) {
        Map<Tier, String> versions = new LinkedHashMap<>();
        configured.forEach((name, version) -> {
            Tier tier = tiers.find(name).orElseThrow(() -> new IllegalStateException("gpupipe.router.model-versions."
                    + name + " names no tier of the catalogue (" + tiers.describeNames() + ")"));
            versions.put(tier, version);
        });
        return versions;
    }

    @Produces
    @Singleton
    Classifier classifier(RouterConfig config, RoutingMetrics metrics, TierCatalogue tiers) {
        return switch (config.classifier().type()) {
            case BEDROCK -> {
                RouterConfig.Bedrock bedrock = config.classifier().bedrock();
                yield new BedrockConverseClassifier(BedrockClients.create(bedrock), bedrock.modelId(), metrics,
                        tiers);
            }
            case HEURISTIC -> Classifier.heuristic();
        };
    }

    void closeClassifier(@Disposes Classifier classifier) {
        if (classifier instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // shutting down: nothing left to do
            }
        }
    }

    /** Eager ({@code @Startup}): the SDK clients are built in the Lambda init phase, not on the first request. */
    @Produces
    @Singleton
    @Startup
    JobService jobService(JobLifecycle jobs, JobStore store, Classifier classifier, RoutingMetrics metrics,
                          Clock clock, RouterConfig config, TierCatalogue tiers) {
        RouterConfig.Routing routing = config.routing();
        RoutingThresholds thresholds = new RoutingThresholds(routing.largePromptChars(), routing.largeMaxTokens(),
                routing.ambiguousPromptChars());
        return new JobService(new JobRequestParser(UUID::randomUUID, tiers),
                new RoutingPolicy(thresholds, classifier, tiers), jobs, store, metrics, clock, config.presignTtl());
    }

    /** Submit and cancel: the fault hook, the result cache and the per-caller limit, passed once. */
    @Produces
    @Singleton
    JobLifecycle jobLifecycle(JobStore store, JobQueue queue, Clock clock, RouterConfig config, ResultCache cache,
                              S3Client s3) {
        FaultInjection faults = FaultInjection.dieAfterMarker(config.fault().dieAfterMarkerRatio());
        JobQuota quota = new JobSlotQuota(new S3JobSlots(s3, config.bucket()), store, limit(config.quota(),
                config.quota().maxUnfinishedJobs()), clock, config.quota().contention());
        return JobLifecycle.of(store, queue, clock, faults::afterMarkerWritten, cache::answer, quota);
    }

    /** The per-caller ledgers of unfinished batches, in the results bucket. */
    @Produces
    @Singleton
    OwnerQuotas ownerQuotas(S3Client s3, RouterConfig config, Clock clock) {
        return new OwnerQuotas(new S3QuotaLedgers(s3, config.bucket()), clock, config.quota().contention());
    }

    private static OwnerQuotas.Limit limit(RouterConfig.Quota quota, int max) {
        return new OwnerQuotas.Limit(max, quota.entryLifetime(), quota.recheck(), quota.retryAfter());
    }

    @Produces
    @Singleton
    BatchStore batchStore(S3Client s3, S3Presigner presigner, RouterConfig config) {
        return new S3BatchStore(s3, presigner, config.bucket());
    }

    @Produces
    @Singleton
    BatchService batchService(BatchStore store, SqsClient sqs, Clock clock, RouterConfig config, OwnerQuotas quotas) {
        Optional<BatchTasks> tasks = config.batchQueueUrl().filter(url -> !url.isBlank())
                .map(url -> new SqsBatchTasks(sqs, url));
        return new BatchService(store, tasks, clock, config.uploadTtl(), config.presignTtl(), UUID::randomUUID,
                new OwnerBatchQuota(quotas, limit(config.quota(), config.quota().maxUnfinishedBatches()), store,
                        new BatchLinesQuota(quotas, limit(config.quota(), config.quota().maxUnfinishedBatchLines()),
                                store)),
                new UploadGrants(store, config.uploadsPerHour(), clock));
    }

    @Produces
    @Singleton
    BatchRetries batchRetries(BatchService batches, BatchStore store, Clock clock) {
        return new BatchRetries(batches, store, clock, UUID::randomUUID);
    }

    @Produces
    @Singleton
    BatchFilePages batchFilePages(BatchStore store, S3Client s3, RouterConfig config) {
        return new BatchFilePages(store, new S3BatchFiles(s3, config.bucket()));
    }

    @Produces
    @Singleton
    RequestGate requestGate(RouterConfig config) {
        return new RequestGate(config.maxBodyBytes());
    }

    @Produces
    @Singleton
    SubmitTracing submitTracing(Tracer tracer, Traces traces) {
        return new SubmitTracing(tracer, traces);
    }

    @Produces
    @Singleton
    StatusUrls statusUrls(RouterConfig config) {
        return new StatusUrls(config.publicBaseUrl());
    }

    @Produces
    @Singleton
    UsageService usageService(S3Client s3, RouterConfig config, TierCatalogue tiers, Clock clock) {
        return new UsageService(new S3UsageStore(s3, config.bucket()), CostEstimate.of(tiers), clock);
    }

    /** The monthly token budget of each caller when one is configured (above 0), else {@link SubmissionBudget#NONE}. */
    @Produces
    @Singleton
    SubmissionBudget submissionBudget(UsageService usage, RouterConfig config, Clock clock) {
        return config.usage().monthlyTokenBudget().filter(tokens -> tokens > 0)
                .<SubmissionBudget>map(tokens -> new TokenBudget(tokens, config.usage().budgetRefresh(),
                        (owner, range) -> usage.days(owner, range).values(), clock))
                .orElse(SubmissionBudget.NONE);
    }
}
