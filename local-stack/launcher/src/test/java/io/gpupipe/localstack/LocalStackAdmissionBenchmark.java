package io.gpupipe.localstack;

import io.gpupipe.localaws.AwsLatency;
import io.gpupipe.localstack.internal.Console;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One caller's burst against the same burst spread over many callers, in one run of the local stack as the README
 * starts it but with no workers (every job stays queued, so only admission is measured) and a region's latency in
 * front of S3 and SQS ({@code --aws-latency s3=20ms,sqs=10ms}): 32 concurrent submitters send 2,000 speech jobs all as
 * one caller, then 2,000 more spread over 32 callers (each a bearer token of its own). Each scenario prints accepted
 * jobs per second (202 answers over the time from the first submission to the last answer), submit latency p50/p99
 * and the 503 and 429 answers; then the goal: one caller at least 0.8× the spread figure, no 503, p99 at most 2× the
 * spread p99 (printed, not asserted: a benchmark). The client never retries, so every answer counts as given.
 * Run: {@code ./mvnw -B -Pbenchmark -pl local-stack/launcher -am verify -Dtest=LocalStackAdmissionBenchmark}
 * ({@code -Dbenchmark.admission-jobs=N}, {@code -Dbenchmark.warm-up=N}, {@code -Dbenchmark.aws-latency=LIST},
 * {@code -Dbenchmark.router-concurrency=N}).
 */
class LocalStackAdmissionBenchmark {
    private static final int JOBS = Integer.getInteger("benchmark.admission-jobs", 2_000);
    private static final int SUBMITTERS = 32;
    private static final int SPREAD_CALLERS = 32;
    /**
     * Submissions before the measured ones, from callers of their own (spread like the second scenario), so that
     * neither scenario pays for the router's cold execution environments and JIT alone.
     */
    private static final int WARM_UP = Integer.getInteger("benchmark.warm-up", 500);
    private static final String LATENCY = System.getProperty("benchmark.aws-latency", "s3=20ms,sqs=10ms");
    private static final int ROUTER_ENVIRONMENTS = Integer.getInteger("benchmark.router-concurrency",
            LaunchOptions.DEFAULT_ROUTER_CONCURRENCY);
    /** The deployed per-caller limit, ample for 2,000; raised to the job count when asked for more. */
    private static final int DEPLOYED_LIMIT = 10_000;

    @TempDir
    Path cache;

    /** One scenario's answers: submit latencies and the count of each status. */
    private record Scenario(String name, double seconds, long[] nanos, Map<Integer, Integer> statuses) {
        int count(int status) {
            return statuses.getOrDefault(status, 0);
        }

        double acceptedPerSecond() {
            return count(202) / seconds;
        }

        double p(int percentile) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            return sorted[Math.max(0, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1)] / 1e6;
        }
    }

    @Test
    void oneCallerAgainstThirtyTwoCallers_withRegionLatency() throws Exception {
        RequiredPackages.assertBuilt();
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), cache).withFreePorts().withWorkers(Set.of())
                .withRouterConcurrency(ROUTER_ENVIRONMENTS).withAwsLatency(AwsLatency.parse(LATENCY));
        StackOverrides limit = StackOverrides.none().withEnvironment("router", Map.of(
                "GPUPIPE_ROUTER_QUOTA_MAX_UNFINISHED_JOBS", Integer.toString(Math.max(DEPLOYED_LIMIT, JOBS))));
        try (LocalStack stack = StackAssembler.start(options, new Console(quiet()), limit)) {
            String run = UUID.randomUUID().toString().substring(0, 8);
            IntFunction<String> token = i -> stack.callers().token("bench-" + run + "-" + i);
            HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(SUBMITTERS)).build();
            URI submit = stack.apiUri().resolve("/v1/jobs");
            double loadBefore = loadAverage();

            List<String> warmUpTokens = tokens(token, 1_000, SPREAD_CALLERS);
            submitAll("warm-up", http, submit, WARM_UP, i -> warmUpTokens.get(i % SPREAD_CALLERS));
            String single = token.apply(0);
            Scenario one = submitAll("one caller", http, submit, JOBS, i -> single);
            List<String> spreadTokens = tokens(token, 1, SPREAD_CALLERS);
            Scenario spread = submitAll(SPREAD_CALLERS + " callers", http, submit, JOBS,
                    i -> spreadTokens.get(i % SPREAD_CALLERS));
            double loadAfter = loadAverage();

            PrintStream out = System.out;
            out.printf(Locale.ROOT, "%nBENCHMARK local stack admission, %,d speech jobs per scenario, %d concurrent "
                    + "submitters, AWS latency %s, no workers, router environments %d, %d cores, load average %.1f at "
                    + "the start, %.1f at the end (after %,d warm-up submissions)%n", JOBS, SUBMITTERS, LATENCY,
                    ROUTER_ENVIRONMENTS, Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter, WARM_UP);
            out.println("  | scenario | accepted/s | p50 ms | p99 ms | 503 | 429 | all answers | seconds |");
            out.println("  |---|---|---|---|---|---|---|---|");
            for (Scenario s : List.of(one, spread)) {
                out.printf(Locale.ROOT, "  | %s | %.1f | %.0f | %.0f | %d | %d | %s | %.1f |%n", s.name(),
                        s.acceptedPerSecond(), s.p(50), s.p(99), s.count(503), s.count(429), s.statuses(),
                        s.seconds());
            }
            double ratio = one.acceptedPerSecond() / spread.acceptedPerSecond();
            double tail = one.p(99) / spread.p(99);
            out.printf(Locale.ROOT, "  goal: one caller's accepted/s at least 0.8x the %d callers': %.2fx: %s%n",
                    SPREAD_CALLERS, ratio, ratio >= 0.8 ? "PASS" : "FAIL");
            out.printf(Locale.ROOT, "  goal: no 503 for one caller: %d: %s%n", one.count(503),
                    one.count(503) == 0 ? "PASS" : "FAIL");
            out.printf(Locale.ROOT, "  goal: one caller's p99 at most 2x the %d callers': %.2fx: %s%n%n",
                    SPREAD_CALLERS, tail, tail <= 2 ? "PASS" : "FAIL");
        }
    }

    private static List<String> tokens(IntFunction<String> token, int first, int count) {
        List<String> tokens = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            tokens.add(token.apply(i));
        }
        return tokens;
    }

    /** {@code jobs} submissions from {@link #SUBMITTERS} threads, submission i as the caller of {@code tokenOf(i)}. */
    private static Scenario submitAll(String name, HttpClient http, URI submit, int jobs, IntFunction<String> tokenOf)
            throws Exception {
        ExecutorService submitters = Executors.newFixedThreadPool(SUBMITTERS);
        try {
            long[] nanos = new long[jobs];
            List<Future<Integer>> answers = new ArrayList<>();
            long started = System.nanoTime();
            for (int i = 0; i < jobs; i++) {
                int n = i;
                HttpRequest request = HttpRequest.newBuilder(submit).header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + tokenOf.apply(i))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"requestId\":\"" + UUID.randomUUID()
                                + "\",\"task\":\"speech\",\"prompt\":\"Job " + i + " of the admission benchmark.\"}"))
                        .build();
                answers.add(submitters.submit(() -> {
                    long sent = System.nanoTime();
                    int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                    nanos[n] = System.nanoTime() - sent;
                    return status;
                }));
            }
            Map<Integer, Integer> statuses = new TreeMap<>();
            for (Future<Integer> answer : answers) {
                statuses.merge(answer.get(), 1, Integer::sum);
            }
            return new Scenario(name, (System.nanoTime() - started) / 1e9, nanos, statuses);
        } finally {
            submitters.shutdownNow();
        }
    }

    private static PrintStream quiet() {
        return new PrintStream(System.out, true, StandardCharsets.UTF_8) {
            @Override
            public void println(String line) {
                if (line.startsWith("[local-stack]") || line.contains("ERROR")) {
                    super.println(line);
                }
            }
        };
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
