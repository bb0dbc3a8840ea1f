package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Embedding jobs per second on the local stack: one embedding worker (llama.cpp on the TinyStories GGUF), N jobs of
 * one input each, all different and with {@code cache: false} so that each is embedded, submitted by 8 clients; the
 * wall time runs from the first submission to the last result. Run: {@code ./mvnw -B -Pbenchmark -pl
 * local-stack/launcher -am verify -Dtest=LocalStackEmbeddingBenchmark} ({@code -Dbenchmark.embed-jobs=N}, default
 * 200; {@code GPUPIPE_TEST_GGUF} names the model when ../shared is not beside the repository).
 */
class LocalStackEmbeddingBenchmark {
    private static final int JOBS = Integer.getInteger("benchmark.embed-jobs", 200);
    private static final int CLIENTS = 8;

    @Test
    void embeddingJobsPerSecond() throws Exception {
        Path model = TestPaths.sharedModel();
        assumeTrue(Files.isRegularFile(model), "skipped: no text model at " + model);
        RequiredPackages.assertBuilt();
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), Files.createTempDirectory("gpupipe-bench-"))
                .withFreePorts().withWorkers(Set.of(Tier.of("embed"))).withTextModel(model);
        try (LocalStack stack = StackAssembler.start(options, new Console(System.out))) {
            ApiClient api = new ApiClient(stack.apiUri());
            api.submit("{\"requestId\":\"" + UUID.randomUUID() + "\",\"task\":\"embed\",\"input\":\"warm\"}");
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            long start = System.nanoTime();
            List<Future<JsonNode>> jobs = new ArrayList<>();
            for (int i = 0; i < JOBS; i++) {
                String text = "Once upon a time there was a little cat number " + i;
                jobs.add(clients.submit(() -> {
                    String id = UUID.randomUUID().toString();
                    api.submit("{\"requestId\":\"" + id + "\",\"task\":\"embed\",\"cache\":false,\"input\":\"" + text
                            + "\"}");
                    return api.awaitTerminal(id, Duration.ofMinutes(10));
                }));
            }
            int succeeded = 0;
            for (Future<JsonNode> job : jobs) {
                succeeded += "succeeded".equals(job.get().path("status").asText()) ? 1 : 0;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            clients.shutdown();
            System.out.printf(Locale.ROOT, "[benchmark] %d embedding jobs (one input, 64 values) on one local worker:"
                    + " %.1f s wall, %.1f jobs/s, %d succeeded, %d cores%n", JOBS, seconds, JOBS / seconds,
                    succeeded, Runtime.getRuntime().availableProcessors());
            assertThat(succeeded).isEqualTo(JOBS);
        }
    }
}
