package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.observability.MetricNamespace;
import io.gpupipe.model.observability.TracingSettings;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.model.serving.ModelServerHealthCheck;
import io.gpupipe.model.serving.VllmServeCommand;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.ecs.AwsLogDriverProps;
import software.amazon.awscdk.services.ecs.ContainerDefinition;
import software.amazon.awscdk.services.ecs.ContainerDefinitionOptions;
import software.amazon.awscdk.services.ecs.ContainerDependency;
import software.amazon.awscdk.services.ecs.ContainerDependencyCondition;
import software.amazon.awscdk.services.ecs.ContainerImage;
import software.amazon.awscdk.services.ecs.HealthCheck;
import software.amazon.awscdk.services.ecs.LogDriver;
import software.amazon.awscdk.services.ecs.TaskDefinition;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketAttributes;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueAttributes;
import software.constructs.Construct;

/**
 * The two containers of a tier's task: the vLLM model server (weights baked into its image or streamed from S3, see
 * {@link ModelWeights}; GPU share; health check tolerant of model load) and the gpu-worker, which talks to it on
 * localhost:8000 and gets 120 s to drain on stop. The worker starts once the model server is HEALTHY, or, with
 * context {@code <tier>FastReadiness=true}, together with it: it then waits for the model itself (readiness turns UP
 * only after GET /v1/models and a warm-up inference answer, every 2 s) instead of up to a health-check interval
 * after the model answers (docs/cold-start.md). The task role may touch only this tier's queue, the DLQ, the bucket
 * prefixes the worker uses (jobs/ markers, results/ documents and audio, cache/ entries) and the model's staged
 * weights when it streams them.
 */
public class TierTask extends Construct {
    static final int MODEL_SERVER_PORT = 8000;
    static final int WORKER_MEMORY_MIB = 1024;

    private static final String WORKER_HEALTH = "http://127.0.0.1:8080/q/health";

    private final Tier tier;
    private final ModelWeights weights;
    private final ContainerDefinition modelServer;
    private final ContainerDefinition worker;

    public TierTask(Construct scope, String id, TaskDefinition taskDefinition, TierServiceProps props) {
        super(scope, id);
        TierSpec spec = props.spec();
        tier = spec.tier();
        weights = ModelWeights.of(this, spec);
        boolean fastReadiness = flag("FastReadiness");
        LogGroup logs = LogGroup.Builder.create(this, "Logs").retention(RetentionDays.ONE_MONTH).build();

        modelServer = taskDefinition.addContainer("model-server", ContainerDefinitionOptions.builder()
                .image(ContainerImage.fromEcrRepository(props.modelServerRepository(), weights.imageTag()))
                .essential(true)
                .gpuCount(spec.gpuShare().gpus())
                .memoryReservationMiB(spec.taskMemoryMiB() - WORKER_MEMORY_MIB)
                .command(modelServerArgs(spec, weights))
                .environment(modelServerEnvironment(weights))
                .healthCheck(modelServerHealthCheck(spec))
                .stopTimeout(Duration.seconds(30))
                .logging(LogDriver.awsLogs(AwsLogDriverProps.builder().logGroup(logs).streamPrefix("model").build()))
                .build());

        worker = taskDefinition.addContainer("gpu-worker", ContainerDefinitionOptions.builder()
                .image(ContainerImage.fromEcrRepository(props.workerRepository(), props.workerImageTag()))
                .essential(true)
                .memoryReservationMiB(WORKER_MEMORY_MIB)
                .environment(withTracing(workerEnvironment(spec, props.sam(), weights)))
                .healthCheck(fastReadiness ? workerLivenessCheck(spec) : workerReadinessCheck())
                .stopTimeout(Duration.seconds(120))
                .logging(LogDriver.awsLogs(AwsLogDriverProps.builder().logGroup(logs).streamPrefix("worker").build()))
                .build());
        worker.addContainerDependencies(ContainerDependency.builder()
                .container(modelServer)
                .condition(fastReadiness ? ContainerDependencyCondition.START : ContainerDependencyCondition.HEALTHY)
                .build());

        grantWorker(taskDefinition, props);
        weights.grantRead(this, taskDefinition.getTaskRole());
    }

    /** The worker started after a HEALTHY model server: ready within a minute (warm-up only). */
    private static HealthCheck workerReadinessCheck() {
        return HealthCheck.builder()
                .command(List.of("CMD-SHELL", "curl -fsS " + WORKER_HEALTH + "/ready || exit 1"))
                .interval(Duration.seconds(15))
                .timeout(Duration.seconds(5))
                .retries(3)
                .startPeriod(Duration.seconds(60))
                .build();
    }

    /**
     * The worker started with its model server waits through the whole model load: its container check is liveness
     * (UP while it waits, DOWN only when it cannot recover), with the model server's own tolerance on top, so ECS
     * never replaces a task whose worker is merely waiting for the weights.
     */
    private static HealthCheck workerLivenessCheck(TierSpec spec) {
        ModelServerHealthCheck model = ModelServerHealthCheck.tolerating(spec.modelLoadGrace());
        return HealthCheck.builder()
                .command(List.of("CMD-SHELL", "curl -fsS " + WORKER_HEALTH + "/live || exit 1"))
                .interval(Duration.seconds(15))
                .timeout(Duration.seconds(5))
                .retries(3)
                .startPeriod(Duration.seconds(model.startPeriod().toSeconds()))
                .build();
    }

    /** The server's environment: offline (the weights are local or in S3), CUDA compatibility, the streamer's. */
    private Map<String, String> modelServerEnvironment(ModelWeights weights) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("VLLM_ENABLE_CUDA_COMPATIBILITY", "1");
        env.put("HF_HUB_OFFLINE", "1");
        env.put("TRANSFORMERS_OFFLINE", "1");
        env.putAll(weights.environment(this));
        return env;
    }

    private boolean flag(String suffix) {
        Object value = getNode().tryGetContext(tier.wireName() + suffix);
        return value != null && Boolean.parseBoolean(value.toString());
    }

    /**
     * {@code vllm serve <weights path> <flags>} (the image's entrypoint is {@code vllm serve}): the path embeds the
     * pinned commit, so an image with other weights does not start and vLLM reports the path as the model's root;
     * the flags ({@link VllmServeCommand}, priority scheduling included) come from the numbers the sizing gate
     * checked.
     */
    static List<String> modelServerArgs(TierSpec spec, ModelWeights weights) {
        return weights.serveArgs(switch (spec.contract()) {
            case TEXT -> serveCommand(spec).args();
            case SPEECH -> omniSpeechArgs(spec);
            case EMBEDDING -> serveCommand(spec).poolingArgs();
        });
    }

    /** The deploy config vLLM-Omni ships for Qwen3-TTS (a path inside its installed package). */
    static final String QWEN3_TTS_DEPLOY_CONFIG = "vllm_omni/deploy/qwen3_tts.yaml";

    /**
     * vLLM-Omni's speech server, as its Speech API docs start Qwen3-TTS (docs.vllm.ai/projects/vllm-omni/en/stable/
     * serving/speech_api: {@code vllm serve <model> --deploy-config vllm_omni/deploy/qwen3_tts.yaml --omni
     * --trust-remote-code --enforce-eager}); it then serves {@code POST /v1/audio/speech} with 24 kHz output. The
     * {@code --deploy-config} schema belongs to the releases the image pins (vllm/vllm-omni:v0.28.0,
     * native-build/models/speech.env); releases around v0.18 took {@code --stage-configs-path} instead.
     */
    static List<String> omniSpeechArgs(TierSpec spec) {
        return List.of("--deploy-config", QWEN3_TTS_DEPLOY_CONFIG, "--omni", "--trust-remote-code",
                "--enforce-eager", "--served-model-name", spec.model().model(), "--host", "127.0.0.1",
                "--port", Integer.toString(MODEL_SERVER_PORT));
    }

    static VllmServeCommand serveCommand(TierSpec spec) {
        return new VllmServeCommand(spec.model().model(), spec.model().maxSequenceLength(),
                spec.model().maxConcurrentSequences(), spec.gpuShare().devices(), "127.0.0.1", MODEL_SERVER_PORT);
    }

    /** The shared-model rule ({@link ModelServerHealthCheck}): tolerates the tier's whole planned model load. */
    static HealthCheck modelServerHealthCheck(TierSpec spec) {
        ModelServerHealthCheck check = ModelServerHealthCheck.tolerating(spec.modelLoadGrace());
        return HealthCheck.builder()
                .command(List.of("CMD-SHELL", "python3 -c \"import urllib.request; urllib.request.urlopen("
                        + "'http://127.0.0.1:" + MODEL_SERVER_PORT + "/health', timeout=4)\" || exit 1"))
                .interval(Duration.seconds(check.interval().toSeconds()))
                .timeout(Duration.seconds(5))
                .retries(check.retries())
                .startPeriod(Duration.seconds(check.startPeriod().toSeconds()))
                .build();
    }

    /**
     * Where the worker's spans go: CDK context {@code tracingExporter} ({@code none}, the default, or {@code otlp})
     * and {@code tracingOtlpEndpoint} (an OTLP/HTTP traces URL, e.g. an ADOT collector sidecar's
     * {@code http://127.0.0.1:4318/v1/traces}); the same variables SAM's TracingExporter parameters set.
     */
    private Map<String, String> withTracing(Map<String, String> env) {
        Object exporter = getNode().tryGetContext("tracingExporter");
        Object endpoint = getNode().tryGetContext("tracingOtlpEndpoint");
        if (exporter != null && TracingSettings.OTLP.equals(exporter.toString())) {
            if (endpoint == null || endpoint.toString().isBlank()) {
                throw new IllegalArgumentException("-c tracingExporter=otlp needs -c tracingOtlpEndpoint=<OTLP/HTTP "
                        + "traces URL>, e.g. http://127.0.0.1:4318/v1/traces");
            }
            env.put(TracingSettings.EXPORTER_ENV, TracingSettings.OTLP);
            env.put(TracingSettings.OTLP_ENDPOINT_ENV, endpoint.toString());
        } else if (exporter != null && !TracingSettings.NONE.equals(exporter.toString())) {
            throw new IllegalArgumentException("-c tracingExporter must be none or otlp, got " + exporter);
        }
        return env;
    }

    static Map<String, String> workerEnvironment(TierSpec spec, SamExports sam, ModelWeights weights) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("GPUPIPE_WORKER_TIER", spec.tier().wireName());
        env.put("GPUPIPE_WORKER_QUEUE_URL", sam.queueUrl(spec.tier()));
        env.put("GPUPIPE_WORKER_DLQ_URL", sam.dlqUrl());
        env.put("GPUPIPE_WORKER_BUCKET", sam.bucketName());
        env.put("GPUPIPE_WORKER_BACKEND", "openai");
        env.put("GPUPIPE_WORKER_MAX_RECEIVE_COUNT", sam.maxReceiveCount());
        env.put("GPUPIPE_WORKER_MODEL", spec.model().model());
        // the figure the server gets as --max-num-seqs (serveCommand); the worker's window follows from it
        // (shared-model WindowSizing: every slot busy plus a quarter waiting)
        env.put("GPUPIPE_WORKER_MODEL_SERVER_SLOTS", Integer.toString(spec.model().maxConcurrentSequences()));
        switch (spec.contract()) {
            case TEXT -> env.put("GPUPIPE_WORKER_WARM_UP_TASK", "generate");
            case EMBEDDING -> env.put("GPUPIPE_WORKER_WARM_UP_TASK", "embed");
            case SPEECH -> {
                // readiness waits for a speech warm-up: a TTS server has no chat completions to warm up
                env.put("GPUPIPE_WORKER_WARM_UP_TASK", "speech");
                env.put("GPUPIPE_WORKER_OPENAI_SPEECH_MODEL", spec.model().model());
            }
        }
        // The worker claims this version only after GET /v1/models reports the expected root (the pinned path).
        env.put("GPUPIPE_WORKER_MODEL_VERSION", spec.modelVersion().wireForm());
        env.put("GPUPIPE_WORKER_OPENAI_EXPECTED_MODEL_ROOT", weights.servedPath());
        env.put("QUARKUS_REST_CLIENT_VLLM_URL", "http://127.0.0.1:" + MODEL_SERVER_PORT);
        env.put(MetricNamespace.ENV_VAR, sam.metricNamespace());
        // the key the router's and the batch function's seals are checked with: only a sealed message names an owner
        env.put(DeploymentKey.SECRET_ENV, sam.deploymentKeySecretArn());
        return env;
    }

    private void grantWorker(TaskDefinition taskDefinition, TierServiceProps props) {
        SamExports sam = props.sam();
        IQueue queue = Queue.fromQueueAttributes(this, "Queue", QueueAttributes.builder()
                .queueArn(sam.queueArn(tier)).queueUrl(sam.queueUrl(tier)).build());
        IQueue dlq = Queue.fromQueueAttributes(this, "DeadLetterQueue", QueueAttributes.builder()
                .queueArn(sam.dlqArn()).queueUrl(sam.dlqUrl()).build());
        BucketAttributes.Builder bucketAttributes = BucketAttributes.builder().bucketName(sam.bucketName());
        props.resultsKey().ifPresent(bucketAttributes::encryptionKey);
        IBucket bucket = Bucket.fromBucketAttributes(this, "Results", bucketAttributes.build());

        queue.grantConsumeMessages(taskDefinition.getTaskRole());
        dlq.grantSendMessages(taskDefinition.getTaskRole());
        bucket.grantRead(taskDefinition.getTaskRole(), "jobs/*");
        bucket.grantPut(taskDefinition.getTaskRole(), "jobs/*");
        bucket.grantRead(taskDefinition.getTaskRole(), "results/*");
        bucket.grantPut(taskDefinition.getTaskRole(), "results/*");
        // claim checks: the router stores jobs too large for a message here (JobMessage, JobLayout.payloadKey)
        bucket.grantRead(taskDefinition.getTaskRole(), JobLayout.PAYLOADS_PREFIX + "*");
        // the result cache: entries created after a success, speech audio copied in (CopyObject reads the source
        // under results/ and puts the copy here), a copy removed again when another worker's entry won
        bucket.grantRead(taskDefinition.getTaskRole(), JobLayout.CACHE_PREFIX + "*");
        bucket.grantPut(taskDefinition.getTaskRole(), JobLayout.CACHE_PREFIX + "*");
        bucket.grantDelete(taskDefinition.getTaskRole(), JobLayout.CACHE_PREFIX + "*");
        // the deployment key, read once at start: that one secret, nothing else of Secrets Manager
        taskDefinition.getTaskRole().addToPrincipalPolicy(PolicyStatement.Builder.create()
                .sid("ReadDeploymentKey").actions(List.of("secretsmanager:GetSecretValue"))
                .resources(List.of(sam.deploymentKeySecretArn())).build());
    }

    public Tier getTier() {
        return tier;
    }

    /** The model-server image's tag (the tier's, or its lean variant when the weights are streamed). */
    public String getModelServerImageTag() {
        return weights.imageTag();
    }

    public ContainerDefinition getModelServer() {
        return modelServer;
    }

    public ContainerDefinition getWorker() {
        return worker;
    }
}
