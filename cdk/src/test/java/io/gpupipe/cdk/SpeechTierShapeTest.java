package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.container;
import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsOptions;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.routing.Classifier;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.model.routing.RoutingThresholds;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.worker.standin.VllmStandIn;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A speech job, deployed shape for shape, goes to the speech tier and comes back as WAV. The
 * speech tier's task definition is taken from the synthesized template as it is: the vLLM-Omni stand-in is started
 * with the model server's synthesized command (served path, served model name, {@code --omni}), the packaged
 * gpu-worker with the worker container's synthesized environment (tier, backend, warm-up task, speech model,
 * pinned version and the root that proves it), only the SAM imports resolved to the local SQS and S3, and the model
 * server's port to the stand-in's. The job is routed by the routing rules the router runs. What cannot run here: the
 * GPU, the real vLLM-Omni, ECS itself (container dependency, health checks).
 */
class SpeechTierShapeTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Tier SPEECH = Tier.of("speech");

    @Test
    void speechJob_shouldComeBackAsWav_fromTheSpeechTierAsSynthesized() throws Exception {
        // given the speech tier's two containers as synthesized
        var gpu = SynthesizedApp.get().gpu;
        List<String> serverCommand = list(container(gpu, "speech", "model-server").get("Command")).stream()
                .map(String::valueOf).toList();
        Map<String, Object> workerEnvironment = environment(container(gpu, "speech", "gpu-worker"));
        // and a speech request routed as the router routes it, sent straight to the queue as a producer sends it
        InferenceJob job = ((JobRequestParser.Outcome.Valid) new JobRequestParser().parse("{\"requestId\":\""
                + UUID.randomUUID() + "\",\"task\":\"speech\",\"prompt\":\"Deployed shape for shape.\","
                + "\"voice\":\"aiden\",\"language\":\"english\"}", JobRequestParser.Source.QUEUE)).job();
        Tier routed = new RoutingPolicy(RoutingThresholds.DEFAULTS, Classifier.heuristic(), TierCatalogue.bundled())
                .route(job).tier();
        assertThat(routed).isEqualTo(SPEECH);

        try (LocalAws aws = LocalAws.start(LocalAwsOptions.defaults());
             VllmStandIn omni = VllmStandIn.start(VllmStandIn.Settings.fromServerArgs(serverCommand));
             SqsClient sqs = aws.newSqsClient();
             S3Client s3 = aws.newS3Client()) {
            Map<String, String> env = deployed(workerEnvironment, serverCommand, aws, omni);
            WorkerProcess worker = WorkerProcess.start(env);
            try {
                // when the job is on the routed tier's queue
                // sealed as the router sends it, so the job keeps its requestId (an unsealed one is the queue owner's)
                String body = JobMessage.inline(job);
                sqs.sendMessage(b -> b.queueUrl(aws.queueUrl(routed)).messageBody(body)
                        .messageAttributes(aws.sealedAttributes(body)));
                JobResult result = worker.awaitResult(s3, aws.bucket(), job.requestId());

                // then it comes back as the speech tier's WAV, from the pinned weights the worker verified
                assertThat(result.status()).as("%s; worker log:%n%s", result.error(), worker.log())
                        .isEqualTo(JobStatus.SUCCEEDED);
                assertThat(result.tier()).isEqualTo(SPEECH);
                assertThat(result.result().format()).isEqualTo("wav");
                assertThat(result.result().sampleRate()).isEqualTo(24_000);
                assertThat(result.modelVersion()).isEqualTo(workerEnvironment.get("GPUPIPE_WORKER_MODEL_VERSION"));
                byte[] wav = s3.getObjectAsBytes(b -> b.bucket(aws.bucket())
                        .key(JobLayout.audioKey(job.requestId()))).asByteArray();
                assertThat(new String(wav, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("RIFF");
                assertThat(new String(wav, 8, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("WAVE");
                assertThat(ByteBuffer.wrap(wav, 24, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()).isEqualTo(24_000);
                // and vLLM-Omni got the documented request for the synthesized served model
                var request = omni.lastSpeechRequest("Deployed shape for shape.").orElseThrow();
                assertThat(request.path("model").asText()).isEqualTo(Tiers.of("speech").model().model());
                assertThat(request.path("voice").asText()).isEqualTo("aiden");
                assertThat(request.path("response_format").asText()).isEqualTo("wav");
            } finally {
                worker.stop();
            }
        }
    }

    /**
     * The synthesized worker environment with only what a deployment resolves elsewhere replaced: the SAM stack's
     * exports (local queues and bucket), the model server's port (the stand-in's), plus the local endpoints and
     * credentials an ECS task role would provide.
     */
    private static Map<String, String> deployed(Map<String, Object> synthesized, List<String> serverCommand,
                                                LocalAws aws, VllmStandIn omni) throws IOException {
        SamExports sam = new SamExports(SynthesizedApp.SAM_STACK);
        Map<String, String> exports = Map.of(
                sam.exportName("queue-url-speech"), aws.queueUrl(SPEECH),
                sam.exportName("dlq-url"), aws.queueUrl(LocalAws.DLQ),
                sam.exportName("bucket-name"), aws.bucket(),
                sam.exportName("max-receive-count"), Integer.toString(aws.maxReceiveCount()),
                sam.exportName("metric-namespace"), "Gpupipe");
        Map<String, String> env = new HashMap<>();
        synthesized.forEach((name, value) -> {
            if (value instanceof String text) {
                env.put(name, text);
            } else if (map(value).get("Fn::ImportValue") instanceof String export && exports.containsKey(export)) {
                env.put(name, exports.get(export));
            } else if (sam.exportName("deployment-key-secret-arn").equals(map(value).get("Fn::ImportValue"))) {
                // Secrets Manager's part locally: the stack's key file, which the test seals with
                env.put(DeploymentKey.FILE_ENV, aws.deploymentKeyFile().toAbsolutePath().toString());
            } else {
                fail("the speech worker reads " + name + " = " + value + ", which this test cannot provide");
            }
        });
        String port = serverCommand.get(serverCommand.indexOf("--port") + 1);
        assertThat(env.get("QUARKUS_REST_CLIENT_VLLM_URL")).isEqualTo("http://"
                + serverCommand.get(serverCommand.indexOf("--host") + 1) + ":" + port);
        env.put("QUARKUS_REST_CLIENT_VLLM_URL", omni.url().toString());
        // the local clients' endpoints, region and credentials, as env vars by Quarkus's mapping (a.b-c → A_B_C)
        aws.quarkusConfig().forEach((key, value) -> {
            if (key.startsWith("quarkus.")) {
                env.put(key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT), value);
            }
        });
        try (ServerSocket socket = new ServerSocket(0)) {
            env.put("QUARKUS_HTTP_PORT", Integer.toString(socket.getLocalPort()));
        }
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        return env;
    }

    private static Map<String, Object> environment(Map<String, Object> container) {
        Map<String, Object> env = new HashMap<>();
        list(container.get("Environment")).stream().map(TemplateJson::map)
                .forEach(e -> env.put(String.valueOf(e.get("Name")), e.get("Value")));
        return env;
    }

    /** The packaged gpu-worker as a process, its output in a file. */
    private record WorkerProcess(Process process, Path logFile) {
        static WorkerProcess start(Map<String, String> env) throws IOException {
            Path jar = Path.of(System.getProperty("gpupipe.worker.jar",
                    "../gpu-worker/target/quarkus-app/quarkus-run.jar"));
            assertThat(jar).as("the packaged worker (-pl cdk -am packages gpu-worker first)").exists();
            Path log = Files.createTempFile("speech-tier-worker-", ".log");
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-jar", jar.toString()).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(env);
            return new WorkerProcess(builder.start(), log);
        }

        JobResult awaitResult(S3Client s3, String bucket, String requestId) {
            try {
                return await("the result of " + requestId).atMost(TIMEOUT).pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(100)).until(() -> {
                            if (!process.isAlive()) {
                                fail("the worker exited (code " + process.exitValue() + ") before a result; log:\n"
                                        + log());
                            }
                            try {
                                return Optional.of(JobJson.read(s3.getObjectAsBytes(b -> b.bucket(bucket)
                                        .key(JobLayout.resultKey(requestId))).asUtf8String(), JobResult.class));
                            } catch (NoSuchKeyException e) {
                                return Optional.<JobResult>empty();
                            }
                        }, Optional::isPresent).orElseThrow();
            } catch (ConditionTimeoutException e) {
                return fail("no result for " + requestId + " within " + TIMEOUT + "; worker log:\n" + log(), e);
            }
        }

        String log() {
            try {
                return Files.readString(logFile);
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }

        void stop() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
