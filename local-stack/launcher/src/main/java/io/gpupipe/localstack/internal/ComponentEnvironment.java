package io.gpupipe.localstack.internal;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localstack.aws.LocalStandIns;
import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.observability.TracingSettings;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.model.serving.EmbeddedModels;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The environment variables each component gets, as the SAM template (functions) and the task definition (worker)
 * set them in AWS, plus the endpoint overrides that point their AWS clients at the local services.
 */
public final class ComponentEnvironment {
    public static final String CALLBACK_SECRET = "local-stack-callback-secret";
    public static final String ECS_CLUSTER = "gpupipe-local";

    private final LocalAws aws;
    private final Path traceFile;

    public ComponentEnvironment(LocalAws aws) {
        this(aws, null);
    }

    /** Components whose spans all go to {@code traceFile} (JSON lines), or nowhere when it is null. */
    public ComponentEnvironment(LocalAws aws, Path traceFile) {
        this.aws = aws;
        this.traceFile = traceFile;
    }

    /** {@code quarkus.sqs.endpoint-override} → {@code QUARKUS_SQS_ENDPOINT_OVERRIDE} (Quarkus's env mapping). */
    public static String envName(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /** The quarkus-amazon-services client settings (region, test credentials, endpoints, path style), text logs. */
    private Map<String, String> awsClients() {
        Map<String, String> env = new LinkedHashMap<>();
        aws.quarkusConfig().forEach((key, value) -> {
            if (key.startsWith("quarkus.")) {
                env.put(envName(key), value);
            }
        });
        // deployed components log JSON lines (quarkus-logging-json); on a developer's console text reads better
        env.put(envName("quarkus.log.console.json.enabled"), "false");
        // the stack's deployment key (a file of its data directory; in AWS the secret SAM creates); read by the
        // components that send or consume job messages, harmless to the rest
        env.put(DeploymentKey.FILE_ENV, aws.deploymentKeyFile().toAbsolutePath().toString());
        if (traceFile != null) {
            env.put(TracingSettings.EXPORTER_ENV, TracingSettings.FILE);
            env.put(TracingSettings.FILE_ENV, traceFile.toAbsolutePath().toString());
        }
        return env;
    }

    /** The scaling-metric function's name in the local stack: what the router's wake invokes. */
    public static final String SCALING_FUNCTION = "scaling-metric";

    /** The router, with the model version of each tier whose workers' version the stack knows (result cache). */
    public Map<String, String> router(Map<Tier, String> modelVersions) {
        return router(modelVersions, null);
    }

    /**
     * The router as above; with {@code lambdaEndpoint} (the Lambda stand-in) its wake of an idle tier invokes the
     * local scaling-metric function there, as SAM's GPUPIPE_ROUTER_WAKE_FUNCTION makes it invoke the deployed one.
     */
    public Map<String, String> router(Map<Tier, String> modelVersions, URI lambdaEndpoint) {
        Map<String, String> env = awsClients();
        if (lambdaEndpoint != null) {
            env.put("GPUPIPE_ROUTER_WAKE_FUNCTION", SCALING_FUNCTION);
            env.put("GPUPIPE_ROUTER_WAKE_ENDPOINT_OVERRIDE", lambdaEndpoint.toString());
        }
        for (TierDefinition tier : aws.tiers().tiers()) {
            env.put("GPUPIPE_ROUTER_QUEUE_URLS_" + tier.tier().envName(), aws.queueUrl(tier.queue()));
        }
        modelVersions.forEach((tier, version) -> env.put("GPUPIPE_ROUTER_MODEL_VERSIONS_" + tier.envName(), version));
        env.put("GPUPIPE_ROUTER_BUCKET", aws.bucket());
        env.put("GPUPIPE_ROUTER_CLASSIFIER_TYPE", "heuristic");
        env.put("GPUPIPE_ROUTER_BATCH_QUEUE_URL", aws.queueUrl(LocalAws.BATCH_QUEUE));
        // one machine, mostly one caller: its soak, benchmarks and console poll at hundreds of requests a second
        env.put("GPUPIPE_ROUTER_RATE_REQUESTS_PER_SECOND", "1000");
        env.put("GPUPIPE_ROUTER_RATE_BURST", "2000");
        return env;
    }

    /**
     * The model version each tier's local worker claims, which the router needs for result cache look-ups (in AWS:
     * SAM's {@code <Tier>ModelVersion}, from the same pinned commit as the CDK worker's). With the embedded backend:
     * FreeTTS for speech tiers, the GGUF file's digest for text tiers when there is a text model
     * ({@link EmbeddedModels}, what the worker computes itself). With the openai backend none: the stack cannot vouch
     * for the weights behind someone's server (set {@code GPUPIPE_WORKER_MODEL_VERSION} and
     * {@code GPUPIPE_ROUTER_MODEL_VERSIONS_<TIER>} yourself to cache there).
     */
    public static Map<Tier, String> modelVersions(TierCatalogue tiers, Backend backend, Path textModel) {
        Map<Tier, String> versions = new LinkedHashMap<>();
        if (backend != Backend.EMBEDDED) {
            return versions;
        }
        String text = textModel == null ? null : ggufVersion(textModel);
        for (TierDefinition tier : tiers.tiers()) {
            String version = switch (tier.contract()) {
                case TEXT, EMBEDDING -> text; // the embedding tier's worker embeds with the same GGUF
                case SPEECH -> EmbeddedModels.FREETTS_VERSION;
            };
            if (version != null) {
                versions.put(tier.tier(), version);
            }
        }
        return versions;
    }

    private static String ggufVersion(Path textModel) {
        try (InputStream in = Files.newInputStream(textModel)) {
            return EmbeddedModels.ggufVersion(in);
        } catch (IOException e) {
            throw new StartupException("cannot read the text model " + textModel + ": " + e.getMessage(), e);
        }
    }

    public Map<String, String> notifier(SnsStandIn sns) {
        Map<String, String> env = awsClients();
        env.put("QUARKUS_SNS_ENDPOINT_OVERRIDE", sns.endpoint().toString());
        env.put("GPUPIPE_NOTIFIER_SUCCESS_TOPIC_ARN", LocalStandIns.SUCCESS_TOPIC);
        env.put("GPUPIPE_NOTIFIER_ERROR_TOPIC_ARN", LocalStandIns.ERROR_TOPIC);
        env.put("GPUPIPE_NOTIFIER_CALLBACK_SECRET", CALLBACK_SECRET);
        env.put("GPUPIPE_NOTIFIER_ALLOWED_CALLBACK_HOSTS", "localhost,127.0.0.1");
        env.put("GPUPIPE_NOTIFIER_CALLBACK_RETRY_QUEUE_URL", aws.queueUrl(LocalAws.CALLBACK_RETRY_QUEUE));
        env.put("GPUPIPE_NOTIFIER_BATCH_QUEUE_URL", aws.queueUrl(LocalAws.BATCH_QUEUE));
        return env;
    }

    /** The dead-letter function: the results bucket (its event source is the DLQ poller). */
    public Map<String, String> deadLetter() {
        Map<String, String> env = awsClients();
        env.put("GPUPIPE_DEADLETTER_BUCKET", aws.bucket());
        return env;
    }

    /** The batch function: the bucket, its own queue (its event source too) and every tier's queue. */
    public Map<String, String> batch() {
        Map<String, String> env = awsClients();
        env.put("GPUPIPE_BATCH_BUCKET", aws.bucket());
        env.put("GPUPIPE_BATCH_QUEUE_URL", aws.queueUrl(LocalAws.BATCH_QUEUE));
        for (TierDefinition tier : aws.tiers().tiers()) {
            env.put("GPUPIPE_BATCH_TIER_QUEUE_URLS_" + tier.tier().envName(), aws.queueUrl(tier.queue()));
        }
        return env;
    }

    /**
     * The scaling-metric function: every tier's queue and (stand-in) ECS service, and the stand-in endpoints; task
     * ceilings and backlog targets are the catalogue's.
     */
    public Map<String, String> scalingMetric(URI ecsEndpoint, URI cloudWatchEndpoint) {
        Map<String, String> env = awsClients();
        for (TierDefinition tier : aws.tiers().tiers()) {
            String prefix = "GPUPIPE_SCALING_TIERS_" + tier.tier().envName() + "_";
            env.put(prefix + "QUEUE_URL", aws.queueUrl(tier.queue()));
            env.put(prefix + "CLUSTER", ECS_CLUSTER);
            env.put(prefix + "SERVICE", ecsService(tier.tier()));
        }
        env.put("GPUPIPE_SCALING_ECS_ENDPOINT_OVERRIDE", ecsEndpoint.toString());
        env.put("GPUPIPE_SCALING_CLOUDWATCH_ENDPOINT_OVERRIDE", cloudWatchEndpoint.toString());
        return env;
    }

    /** The ECS service name of a tier's workers, as the ECS stand-in reports it. */
    public static String ecsService(Tier tier) {
        return ECS_CLUSTER + "-" + tier.wireName();
    }

    /**
     * The worker of one tier: its queue, the DLQ, the bucket, the backend, and its HTTP (health) server on any free
     * loopback port, which the worker announces ({@link WorkerProcess#LISTENING}).
     */
    public Map<String, String> worker(Tier tier, Backend backend, Path textModel, URI modelServerUrl) {
        Map<String, String> env = awsClients();
        env.put("AWS_REGION", LocalAws.REGION);
        env.put("AWS_ACCESS_KEY_ID", LocalAws.ACCESS_KEY);
        env.put("AWS_SECRET_ACCESS_KEY", LocalAws.SECRET_KEY);
        env.put("GPUPIPE_WORKER_TIER", tier.wireName());
        env.put("GPUPIPE_WORKER_QUEUE_URL", aws.queueUrl(tier));
        // readiness waits for a warm-up of the kind of job the tier serves (FreeTTS for speech, as today)
        env.put("GPUPIPE_WORKER_WARM_UP_TASK", switch (aws.tiers().get(tier).contract()) {
            case TEXT -> "generate";
            case SPEECH -> "speech";
            case EMBEDDING -> "embed";
        });
        env.put("GPUPIPE_WORKER_DLQ_URL", aws.queueUrl(LocalAws.DLQ));
        env.put("GPUPIPE_WORKER_BUCKET", aws.bucket());
        env.put("GPUPIPE_WORKER_MAX_RECEIVE_COUNT", Integer.toString(aws.maxReceiveCount()));
        env.put("GPUPIPE_WORKER_TASK_ARN", "arn:aws:ecs:" + LocalAws.REGION + ":000000000000:task/gpupipe-local/"
                + "worker-" + tier.wireName());
        env.put("GPUPIPE_WORKER_BACKEND", backend.wireName());
        if (backend == Backend.EMBEDDED && textModel != null) {
            env.put("GPUPIPE_WORKER_EMBEDDED_TEXT_MODEL_PATH", textModel.toAbsolutePath().toString());
        }
        if (backend == Backend.OPENAI) {
            env.put("QUARKUS_REST_CLIENT_VLLM_URL", modelServerUrl.toString());
        }
        env.put("QUARKUS_HTTP_PORT", "0");
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        return env;
    }
}
