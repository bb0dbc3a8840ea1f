package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsOptions;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.worker.standin.VllmStandIn;
import io.gpupipe.worker.support.LocalPipeline;
import io.gpupipe.worker.support.TestModels;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The packaged worker ({@code java -jar target/quarkus-app/quarkus-run.jar}) started as the local stack starts it,
 * configured by environment only, with the embedded backend, against in-JVM SQS/S3; stopped with SIGTERM.
 */
class WorkerProcessIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static LocalAws aws;
    private static LocalPipeline pipeline;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startAws() {
        aws = LocalAws.start(LocalAwsOptions.defaults().withVisibilityTimeouts(30));
        pipeline = new LocalPipeline(aws);
    }

    @AfterAll
    static void stopAws() {
        pipeline.close();
        aws.close();
    }

    @Test
    void sigterm_shouldFinishOrReleaseEveryJobInFlight_andEndTheProcess_withTheTextModelLoaded() throws Exception {
        Optional<Path> gguf = TestModels.storiesGguf();
        assumeTrue(gguf.isPresent(), TestModels.MISSING);
        // given a small-tier worker with llama.cpp
        WorkerProcess worker = WorkerProcess.start(env(gguf));
        try {
            worker.awaitReady(http);
            String story = LocalPipeline.newRequestId();
            pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(story, "Once upon a time",
                    j -> j.put("maxTokens", 40)));
            JobResult storyResult = pipeline.awaitResult(story, TIMEOUT);
            assertThat("Once upon a time" + storyResult.result().text())
                    .startsWith("Once upon a time, there was a little girl named Lily.");
            assertThat(storyResult.model()).isEqualTo("stories260K");
            // and 16 long generations queued behind one another (llama.cpp runs one at a time)
            List<String> jobs = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String id = LocalPipeline.newRequestId();
                jobs.add(id);
                pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "Once upon a time " + i,
                        j -> j.put("maxTokens", 1000)));
            }
            await("a first long job to finish").atMost(TIMEOUT)
                    .until(() -> jobs.stream().anyMatch(id -> pipeline.result(id).isPresent()));
            // when ECS stops the task
            long stopped = System.nanoTime();
            worker.process().destroy();
            boolean exited = worker.process().waitFor(30, TimeUnit.SECONDS);
            long exitMs = (System.nanoTime() - stopped) / 1_000_000;
            // then the JVM ends (llama.cpp loaded) within grace + release, and no job is lost
            assertThat(exited).as("worker exited after SIGTERM; log:\n%s", worker.log()).isTrue();
            assertThat(exitMs).isLessThan(20_000);
            Set<String> finished = jobs.stream().filter(id -> pipeline.result(id).isPresent())
                    .collect(Collectors.toSet());
            Set<String> released = pipeline.drainQueue(LocalAws.DEFAULT_TEXT_QUEUE, Duration.ZERO).stream()
                    .map(m -> jobs.stream().filter(m.body()::contains).findFirst().orElse("other"))
                    .collect(Collectors.toSet());
            assertThat(released).doesNotContain("other");
            Set<String> accounted = new java.util.HashSet<>(finished);
            accounted.addAll(released);
            assertThat(accounted).as("every job finished or is back in the queue").containsAll(jobs);
            assertThat(released).as("jobs released unfinished").isNotEmpty();
            released.stream().filter(id -> !finished.contains(id))
                    .forEach(id -> assertThat(pipeline.result(id)).isEmpty());
            String log = worker.log();
            assertThat(log).contains("drained tier small");
            assertThat(log).contains("\"logger\":\"io.gpupipe.worker.job\"").contains("\"requestId\":\"" + story);
            assertThat(log).contains("\"_aws\"").contains("\"Namespace\":\"Gpupipe\"");
        } finally {
            worker.kill();
        }
    }

    @Test
    void withoutTextModel_generateShouldFailSayingHowToConfigure_andSpeechShouldBeRefusedByTheTextTier()
            throws Exception {
        // given a small-tier worker with no GGUF configured (FreeTTS is there, but the tier serves no speech)
        WorkerProcess worker = WorkerProcess.start(env(Optional.empty()));
        try {
            worker.awaitReady(http);
            String generate = LocalPipeline.newRequestId();
            String speech = LocalPipeline.newRequestId();
            // when
            pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(generate, "Once upon a time"));
            pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(speech, "Still talking.", j -> j.put("task",
                    "speech")));
            // then
            JobResult failed = pipeline.awaitResult(generate, TIMEOUT);
            assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
            assertThat(failed.error().code()).isEqualTo(ErrorCodes.MODEL_UNAVAILABLE);
            assertThat(failed.error().message()).contains("GPUPIPE_WORKER_EMBEDDED_TEXT_MODEL_PATH");
            assertThat(failed.attempts()).isEqualTo(1);
            JobResult refused = pipeline.awaitResult(speech, TIMEOUT);
            assertThat(refused.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
            assertThat(refused.error().message()).contains("tier small cannot serve speech jobs");
            assertThat(pipeline.audio(speech)).isEmpty();
            worker.process().destroy();
            assertThat(worker.process().waitFor(20, TimeUnit.SECONDS)).isTrue();
        } finally {
            worker.kill();
        }
    }

    @Test
    void slowModelStart_shouldTakeNoJobWhileTheModelLoads_andTheWaitingJobAsSoonAsTheModelAnswers() throws Exception {
        // given: a model server loading (connections refused, as vLLM's), a job waiting, and the worker started with
        // it (-c <tier>FastReadiness: no health-check dependency, the worker's readiness is the gate)
        try (VllmStandIn model = VllmStandIn.start(VllmStandIn.Settings.defaults().withLoadDelay(Duration.ofHours(1)))) {
            String id = LocalPipeline.newRequestId();
            pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "Once upon a time"));
            Map<String, String> env = WorkerProcess.localAwsEnv(aws);
            env.put("GPUPIPE_WORKER_BACKEND", "openai");
            env.put("GPUPIPE_WORKER_MODEL", model.settings().model());
            env.put("QUARKUS_REST_CLIENT_VLLM_URL", model.url().toString());
            WorkerProcess worker = WorkerProcess.start(env);
            try {
                // when: the worker has been refused by the loading server
                await("the worker to ask the loading model server").atMost(TIMEOUT)
                        .until(() -> worker.log().contains("cannot warm up the model yet"));

                // then: not ready, and the job untouched (never received)
                assertThat(readiness(worker)).isEqualTo(503);
                assertThat(pipeline.sqs().getQueueAttributes(b -> b.queueUrl(pipeline.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE))
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes())
                        .containsEntry(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, "1")
                        .containsEntry(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, "0");
                assertThat(model.successfulCalls()).isZero();

                // when: the engine is up
                long loaded = System.nanoTime();
                model.finishLoading();

                // then: ready at its next retry (every 2 s by default) and the waiting job served
                worker.awaitReady(http);
                long toReadyMs = (System.nanoTime() - loaded) / 1_000_000;
                assertThat(pipeline.awaitResult(id, TIMEOUT).status()).isEqualTo(JobStatus.SUCCEEDED);
                System.out.printf("model answering -> worker ready: %d ms (retry interval 2 s)%n", toReadyMs);
            } finally {
                worker.kill();
            }
        }
    }

    private int readiness(WorkerProcess worker) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + worker.port() + "/q/health/ready"))
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static Map<String, String> env(Optional<Path> gguf) {
        Map<String, String> env = WorkerProcess.localAwsEnv(aws);
        env.put("GPUPIPE_WORKER_BACKEND", "embedded");
        env.put("GPUPIPE_WORKER_EMBEDDED_CONTEXT_SIZE", "2048");
        env.put("GPUPIPE_WORKER_EMBEDDED_THREADS", "1");
        gguf.ifPresent(path -> env.put("GPUPIPE_WORKER_EMBEDDED_TEXT_MODEL_PATH", path.toString()));
        return env;
    }

    /** One worker JVM with its output in a file. */
    record WorkerProcess(Process process, Path logFile, int port) {

        /** A small-tier worker on the local queues and bucket (1 s long polls, 1 s drain grace); add the backend. */
        static Map<String, String> localAwsEnv(LocalAws aws) {
            Map<String, String> env = new HashMap<>();
            env.put("GPUPIPE_WORKER_TIER", "small");
            env.put("GPUPIPE_WORKER_QUEUE_URL", aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE));
            env.put("GPUPIPE_WORKER_BUCKET", aws.bucket());
            env.put("GPUPIPE_WORKER_WAIT_TIME", "1s");
            env.put("GPUPIPE_WORKER_DRAIN_GRACE", "1s");
            env.put("QUARKUS_SQS_ENDPOINT_OVERRIDE", aws.sqsEndpoint().toString());
            env.put("QUARKUS_S3_ENDPOINT_OVERRIDE", aws.s3Endpoint().toString());
            env.put("QUARKUS_S3_PATH_STYLE_ACCESS", "true");
            env.put("AWS_REGION", LocalAws.REGION);
            env.put("AWS_ACCESS_KEY_ID", LocalAws.ACCESS_KEY);
            env.put("AWS_SECRET_ACCESS_KEY", LocalAws.SECRET_KEY);
            // the key LocalPipeline seals with, as the router's: the jobs keep the owners their messages name
            env.put(DeploymentKey.FILE_ENV, aws.deploymentKeyFile().toAbsolutePath().toString());
            return env;
        }

        static WorkerProcess start(Map<String, String> env) throws IOException {
            return start(env, List.of());
        }

        /** Starts {@code java [jvmOptions] -jar quarkus-run.jar} with {@code env}. */
        static WorkerProcess start(Map<String, String> env, List<String> jvmOptions) throws IOException {
            String jar = System.getProperty("gpupipe.worker.jar", "target/quarkus-app/quarkus-run.jar");
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            Path log = Files.createTempFile("gpu-worker-it-", ".log");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString()));
            command.addAll(jvmOptions);
            command.addAll(List.of("-jar", jar));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(env);
            builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
            builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
            return new WorkerProcess(builder.start(), log, port);
        }

        void awaitReady(HttpClient http) {
            await("readiness UP").atMost(TIMEOUT).until(() -> {
                if (!process.isAlive()) {
                    throw new AssertionError("worker exited early:\n" + log());
                }
                try {
                    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                            + "/q/health/ready")).build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
                } catch (IOException e) {
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            });
        }

        String log() {
            try {
                return Files.readString(logFile);
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }

        void kill() {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }
}
