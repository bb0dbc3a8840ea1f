package io.gpupipe.worker;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsOptions;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.worker.WorkerProcessIT.WorkerProcess;
import io.gpupipe.worker.standin.VllmStandIn;
import io.gpupipe.worker.support.LocalPipeline;
import io.gpupipe.worker.support.TestModels;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Prints the packaged worker's footprint (not a test; runs after packaging with {@code ./mvnw -B -Pbenchmark -pl
 * gpu-worker verify}): start-up-to-ready time and resident memory (VmRSS and its peak VmHWM from
 * /proc/&lt;pid&gt;/status) of a real {@code java -jar quarkus-run.jar}, JVM mode, once with the openai backend (no
 * model in the process) and once with the embedded models (FreeTTS, plus llama.cpp with stories260K when present),
 * each under the JVM's defaults and under the image's options for a 1 GiB worker container
 * ({@code benchmark.jvm-options}). Each run then handles {@code benchmark.footprint-jobs} (200) jobs before the
 * second reading.
 */
class WorkerFootprintBenchmarkIT {
    private static final int JOBS = Integer.getInteger("benchmark.footprint-jobs", 200);
    /** What Dockerfile.worker-jvm gives the JVM, for the 1 GiB the worker container is given (TierTask). */
    private static final List<String> IMAGE_OPTIONS = Arrays.asList(System.getProperty("benchmark.jvm-options",
            "-XX:MaxRAM=1g -XX:MaxRAMPercentage=75").trim().split("\\s+"));
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void footprint() throws Exception {
        Optional<Path> gguf = TestModels.storiesGguf();
        System.out.printf("%nBENCHMARK worker footprint, JVM mode, %s; %d jobs between readings; host RAM %d MiB%n",
                System.getProperty("gpupipe.worker.jar"), JOBS, hostMemoryMib());
        gguf.ifPresentOrElse(p -> System.out.printf("embedded text model %s: %d KiB of weights%n", p.getFileName(),
                size(p) / 1024), () -> System.out.println(TestModels.MISSING));
        try (LocalAws aws = LocalAws.start(LocalAwsOptions.defaults().withVisibilityTimeouts(30));
             LocalPipeline pipeline = new LocalPipeline(aws);
             VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults())) {
            for (List<String> options : List.of(List.<String>of(), IMAGE_OPTIONS)) {
                Map<String, String> openai = WorkerProcess.localAwsEnv(aws);
                openai.put("GPUPIPE_WORKER_BACKEND", "openai");
                openai.put("QUARKUS_REST_CLIENT_VLLM_URL", standIn.url().toString());
                measure("openai backend (no model in process)", openai, options, pipeline, "generate");
                Map<String, String> embedded = WorkerProcess.localAwsEnv(aws);
                embedded.put("GPUPIPE_WORKER_BACKEND", "embedded");
                embedded.put("GPUPIPE_WORKER_TIER", "speech");
                embedded.put("GPUPIPE_WORKER_QUEUE_URL", aws.queueUrl(Tier.of("speech")));
                embedded.put("GPUPIPE_WORKER_EMBEDDED_THREADS", "1");
                gguf.ifPresent(p -> embedded.put("GPUPIPE_WORKER_EMBEDDED_TEXT_MODEL_PATH", p.toString()));
                measure("embedded (FreeTTS" + (gguf.isPresent() ? " + llama.cpp" : "") + ")", embedded, options,
                        pipeline, "speech");
            }
        }
        System.out.println();
    }

    private void measure(String name, Map<String, String> env, List<String> options, LocalPipeline pipeline,
                         String task) throws IOException, InterruptedException {
        String queueName = TierCatalogue.bundled().get(Tier.of(env.get("GPUPIPE_WORKER_TIER"))).queue();
        long start = System.nanoTime();
        WorkerProcess worker = WorkerProcess.start(env, options);
        try {
            worker.awaitReady(http);
            long readyMs = (System.nanoTime() - start) / 1_000_000;
            long readyRss = status(worker, "VmRSS");
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < JOBS; i++) {
                String id = LocalPipeline.newRequestId();
                ids.add(id);
                pipeline.send(queueName, LocalPipeline.job(id, "Once upon a time " + i,
                        j -> j.put("task", task).put("maxTokens", 32)));
            }
            ids.forEach(id -> pipeline.awaitResult(id, Duration.ofMinutes(5)));
            System.out.printf("%-40s %-40s ready %6d ms  RSS at ready %4d MiB, after %d jobs %4d MiB, peak %4d MiB%n",
                    name, options.isEmpty() ? "(JVM defaults)" : String.join(" ", options), readyMs, readyRss / 1024,
                    JOBS, status(worker, "VmRSS") / 1024, status(worker, "VmHWM") / 1024);
            worker.process().destroy();
            worker.process().waitFor(30, TimeUnit.SECONDS);
        } finally {
            worker.kill();
        }
    }

    /** A kB figure from /proc/&lt;pid&gt;/status (Linux). */
    private static long status(WorkerProcess worker, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(worker.process().pid()), "status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException(field + " not in /proc/" + worker.process().pid() + "/status");
    }

    private static long hostMemoryMib() throws IOException {
        return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024).findFirst().orElse(-1);
    }

    private static long size(Path path) {
        try {
            return Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }
}
