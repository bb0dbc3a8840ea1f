package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.JobLayout;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Throughput of the default local stack (both workers, embedded backend): 500 speech jobs submitted over HTTP by 16
 * concurrent clients; prints the start-up time, the API's acceptance rate and latency, and the end-to-end rate
 * (first submission to last result object in S3). Run: {@code ./mvnw -B -Pbenchmark -pl local-stack/launcher verify}.
 */
class LocalStackBenchmark {
    private static final int JOBS = Integer.getInteger("benchmark.jobs", 500);
    private static final int CLIENTS = 16;

    @TempDir
    Path cache;

    @Test
    void speechJobs_throughput() throws Exception {
        RequiredPackages.assertBuilt();
        PrintStream quiet = new PrintStream(System.out, true, StandardCharsets.UTF_8) {
            @Override
            public void println(String line) {
                if (line.startsWith("[local-stack]") || line.contains("ERROR") || line.contains("WARN")) {
                    super.println(line);
                }
            }
        };
        long startNanos = System.nanoTime();
        try (LocalStack stack = LocalStack.start(LaunchOptions.defaults(TestPaths.repo(), cache).withFreePorts(),
                new Console(quiet))) {
            Duration startUp = Duration.ofNanos(System.nanoTime() - startNanos);
            Set<String> done = ConcurrentHashMap.newKeySet();
            stack.aws().onObjectCreated((bucket, key, size, eTag) -> JobLayout.requestIdOfResultKey(key)
                    .ifPresent(done::add));
            HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(CLIENTS)).build();
            URI submit = stack.apiUri().resolve("/v1/jobs");
            List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            List<Future<Integer>> replies = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int i = 0; i < JOBS; i++) {
                String body = "{\"requestId\":\"" + UUID.randomUUID() + "\",\"task\":\"speech\",\"prompt\":\"Job "
                        + i + " of the local stack benchmark.\"}";
                replies.add(clients.submit(() -> {
                    long s = System.nanoTime();
                    int status = http.send(HttpRequest.newBuilder(submit).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode();
                    latencies.add(System.nanoTime() - s);
                    return status;
                }));
            }
            int queued = 0;
            List<Integer> others = new ArrayList<>();
            for (Future<Integer> reply : replies) {
                int status = reply.get();
                if (status == 202) {
                    queued++;
                } else {
                    others.add(status);
                }
            }
            long accepted = System.nanoTime() - t0;
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (done.size() < queued && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            long finished = System.nanoTime() - t0;
            clients.shutdownNow();
            assertThat(done).hasSize(queued);
            List<Long> sorted = new ArrayList<>(latencies);
            Collections.sort(sorted);
            System.out.printf(Locale.ROOT, "%nBENCHMARK local stack, %d speech jobs over HTTP, %d clients, %d cores%n",
                    JOBS, CLIENTS, Runtime.getRuntime().availableProcessors());
            System.out.printf(Locale.ROOT, "  start-up (in-process, to ready): %.1f s%n", startUp.toMillis() / 1e3);
            System.out.printf(Locale.ROOT, "  API accepted all in %.1f s: %.1f jobs/s; submit latency p50 %.1f ms, "
                    + "p99 %.1f ms%n", accepted / 1e9, JOBS / (accepted / 1e9), pct(sorted, 0.50), pct(sorted, 0.99));
            System.out.printf(Locale.ROOT, "  answers: %d x 202 queued, other: %s%n", queued, others);
            System.out.printf(Locale.ROOT, "  all %d results in S3 after %.1f s: %.1f jobs/s end to end%n%n",
                    queued, finished / 1e9, queued / (finished / 1e9));
        }
    }

    private static double pct(List<Long> sorted, double q) {
        return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size()))) / 1e6;
    }
}
