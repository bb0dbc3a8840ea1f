package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.worker.standin.VllmStandIn;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Throughput of the local stack over its HTTP API, 16 concurrent clients, from first submission to the last result
 * object in S3. Two runs: 500 speech jobs on the default stack (embedded backend: FreeTTS takes the CPUs), and 2,000
 * text jobs with an instant model (the {@code openai} backend against the vLLM stand-in with zero-cost decode steps),
 * which measures the pipeline itself: router, SQS, S3, workers and the notifier. Each prints the API's acceptance
 * rate and submit latency and the end-to-end rate.
 * Run: {@code ./mvnw -B -Pbenchmark -pl local-stack/launcher -am verify} ({@code -Dbenchmark.jobs=N} for the speech
 * run, {@code -Dbenchmark.instant-jobs=N} for the instant one, {@code -Dbenchmark.router-concurrency=N} for the router's
 * execution environments).
 */
class LocalStackBenchmark {
    private static final int SPEECH_JOBS = Integer.getInteger("benchmark.jobs", 500);
    private static final int INSTANT_JOBS = Integer.getInteger("benchmark.instant-jobs", 2_000);
    private static final int CLIENTS = 16;
    /** How often the benchmark looks for results: the resolution of its end-to-end times. */
    private static final Duration POLL = Duration.ofMillis(20);
    /** {@code -Dbenchmark.jfr=DIR}: flight recordings of every JVM of the stack over the measured interval. */
    private static final String JFR_DIR = System.getProperty("benchmark.jfr");
    private static final int ROUTER_ENVIRONMENTS = Integer.getInteger("benchmark.router-concurrency",
            LaunchOptions.DEFAULT_ROUTER_CONCURRENCY);
    /**
     * {@code -Dbenchmark.console=open}: a headless Chromium holds the web console's jobs and queues pages open for
     * the whole run (both refresh every 2 s); {@code off}: the stack runs with {@code --no-console}; default: the
     * console is on (as the launcher starts it) and no page is open.
     */
    private static final String CONSOLE = System.getProperty("benchmark.console", "on");

    @TempDir
    Path cache;

    @Test
    void speechJobs_throughput() throws Exception {
        RequiredPackages.assertBuilt();
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), cache).withFreePorts()
                .withRouterConcurrency(ROUTER_ENVIRONMENTS);
        measure("speech jobs, embedded backend (FreeTTS)", options, SPEECH_JOBS, i -> "{\"requestId\":\""
                + UUID.randomUUID() + "\",\"task\":\"speech\",\"prompt\":\"Job " + i
                + " of the local stack benchmark.\"}");
    }

    @Test
    void instantModel_throughput() throws Exception {
        RequiredPackages.assertBuilt();
        // No decode cost and room for every window slot of both workers: the model server is never the bottleneck.
        try (VllmStandIn model = VllmStandIn.start(VllmStandIn.Settings.defaults().withStep(Duration.ZERO, 0)
                .withMaxSequences(256))) {
            LaunchOptions options = new LaunchOptions(0, 0, 0, null, null, false,
                    LaunchOptions.DEFAULT_TEXT_MODEL_URL, LaunchOptions.DEFAULT_TEXT_MODEL_SHA256, cache,
                    Backend.OPENAI, model.url(), new LinkedHashSet<>(TierCatalogue.bundled().names()),
                    LaunchOptions.DEFAULT_METRIC_INTERVAL,
                    TestPaths.repo()).withRouterConcurrency(ROUTER_ENVIRONMENTS);
            List<Tier> tiers = TierCatalogue.bundled().serving(Task.GENERATE);
            measure("text jobs, instant model (openai backend, vLLM stand-in, zero-cost steps)", options,
                    INSTANT_JOBS, i -> "{\"requestId\":\"" + UUID.randomUUID() + "\",\"task\":\"generate\",\"route\":\""
                            + tiers.get(i % tiers.size()).wireName() + "\",\"maxTokens\":8,\"prompt\":\"Job " + i
                            + " of the instant-model benchmark.\"}");
        }
    }

    /**
     * The result cache: submit → result of the same deterministic jobs twice, first as misses (queue,
     * worker, model), then under new requestIds as hits (answered by the router). Speech jobs on FreeTTS, and text
     * jobs on TinyStories when ../shared/models/stories260K.gguf is there. {@code -Dbenchmark.cache-jobs=N} (200).
     */
    @Test
    void cacheHits_latency() throws Exception {
        RequiredPackages.assertBuilt();
        Path gguf = TestPaths.sharedModel();
        boolean text = java.nio.file.Files.isRegularFile(gguf);
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), cache).withFreePorts()
                .withRouterConcurrency(ROUTER_ENVIRONMENTS).withTextModel(text ? gguf : null);
        try (LocalStack stack = StackAssembler.start(options, new Console(quiet()))) {
            Map<String, Long> resultAt = new ConcurrentHashMap<>();
            stack.aws().onObjectCreated((bucket, key, size, eTag) -> JobLayout.requestIdOfResultKey(key)
                    .ifPresent(id -> resultAt.putIfAbsent(id, System.nanoTime())));
            Set<String> entries = ConcurrentHashMap.newKeySet();
            stack.aws().onObjectCreated((bucket, key, size, eTag) -> {
                if (key.startsWith(JobLayout.CACHE_PREFIX) && key.endsWith(JobLayout.JSON_SUFFIX)) {
                    entries.add(key);
                }
            });
            List<IntFunction<String>> kinds = new ArrayList<>();
            String run = UUID.randomUUID().toString().substring(0, 8);
            kinds.add(i -> "\"task\":\"speech\",\"prompt\":\"Cached sentence " + i + " of run " + run
                    + ".\",\"cache\":true");
            if (text) {
                kinds.add(i -> "\"prompt\":\"Once upon a time " + run + " " + i + "\",\"maxTokens\":32,"
                        + "\"temperature\":0,\"cache\":true");
            }
            System.out.printf(Locale.ROOT, "%nBENCHMARK local stack result cache, %d jobs per kind, %d clients, %d "
                    + "cores, load average %.1f%n", CACHE_JOBS, CACHE_CLIENTS, Runtime.getRuntime().availableProcessors(),
                    loadAverage());
            for (IntFunction<String> kind : kinds) {
                String name = kind.apply(0).contains("speech") ? "speech (FreeTTS)" : "text (TinyStories, llama.cpp)";
                Latencies misses = submitAll(stack, kind, resultAt);
                awaitOrReportShortfall(await("a cache entry per answered miss").atMost(Duration.ofMinutes(5)),
                        () -> entries.size() >= misses.answered());
                int cachedEntries = entries.size();
                Latencies hits = submitAll(stack, kind, resultAt);
                entries.clear();
                System.out.printf(Locale.ROOT, "  %s, misses: answers %s, submit → result p50 %.1f ms, p99 %.1f ms; "
                        + "%d cache entries written%n", name, misses.statuses(), misses.p(0.50), misses.p(0.99),
                        cachedEntries);
                System.out.printf(Locale.ROOT, "  %s, hits:   answers %s, submit → result p50 %.1f ms, p99 %.1f ms "
                        + "(load average %.1f)%n", name, hits.statuses(), hits.p(0.50), hits.p(0.99), loadAverage());
            }
        }
    }

    private static final int CACHE_JOBS = Integer.getInteger("benchmark.cache-jobs", 200);
    private static final int CACHE_CLIENTS = 4;
    private static final int SUBMIT_ATTEMPTS = 5;

    /** What one round of submissions got: each answer's status and each job's submit → result-object time. */
    private record Latencies(Map<Integer, Integer> statuses, List<Long> nanos) {
        int answered() {
            return nanos.size();
        }

        double p(double q) {
            List<Long> sorted = new ArrayList<>(nanos);
            Collections.sort(sorted);
            return pct(sorted, q);
        }
    }

    /**
     * Submits job {@code i} of {@code kind} for every i under a new requestId (5xx answers retried) and waits for the
     * result of every accepted one; a submission still refused after the retries counts in the statuses only.
     */
    private Latencies submitAll(LocalStack stack, IntFunction<String> kind, Map<String, Long> resultAt)
            throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        URI submit = stack.apiUri().resolve("/v1/jobs");
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(CACHE_CLIENTS);
        List<Future<Integer>> replies = new ArrayList<>();
        for (int i = 0; i < CACHE_JOBS; i++) {
            String id = UUID.randomUUID().toString();
            String json = "{\"requestId\":\"" + id + "\"," + kind.apply(i) + "}";
            replies.add(clients.submit(() -> {
                sentAt.put(id, System.nanoTime());
                // as a client would: the same requestId again after Retry-After when the router answers 5xx
                int status = 0;
                for (int attempt = 1; attempt <= SUBMIT_ATTEMPTS; attempt++) {
                    status = http.send(HttpRequest.newBuilder(submit).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode();
                    if (status < 500) {
                        break;
                    }
                    Thread.sleep(1000); // the client's back-off before it retries, not a wait for a condition
                }
                if (status >= 300) {
                    sentAt.remove(id);
                }
                return status;
            }));
        }
        for (Future<Integer> reply : replies) {
            statuses.merge(reply.get(), 1, Integer::sum);
        }
        clients.shutdown();
        await().atMost(Duration.ofMinutes(10)).pollDelay(Duration.ZERO).pollInterval(POLL)
                .untilAsserted(() -> assertThat(resultAt.keySet()).containsAll(sentAt.keySet()));
        List<Long> nanos = sentAt.entrySet().stream().map(e -> resultAt.get(e.getKey()) - e.getValue()).toList();
        return new Latencies(statuses, nanos);
    }


    /**
     * Waits, polling every {@link #POLL}; on a timeout the figures still print, with the shortfall in them (and the
     * assertions after them fail).
     */
    private static void awaitOrReportShortfall(ConditionFactory wait, Callable<Boolean> condition) {
        try {
            wait.pollDelay(Duration.ZERO).pollInterval(POLL).until(condition);
        } catch (ConditionTimeoutException e) {
            System.out.println("  " + e.getMessage());
        }
    }

    private static PrintStream quiet() {
        return new PrintStream(System.out, true, StandardCharsets.UTF_8) {
            @Override
            public void println(String line) {
                if (line.startsWith("[local-stack]") || line.contains("ERROR") || line.contains("WARN")) {
                    super.println(line);
                }
            }
        };
    }

    private void measure(String what, LaunchOptions given, int jobs, IntFunction<String> body) throws Exception {
        PrintStream quiet = quiet();
        long startNanos = System.nanoTime();
        LaunchOptions options = given.withConsole(!"off".equals(CONSOLE));
        try (LocalStack stack = StackAssembler.start(options, new Console(quiet));
             AutoCloseable pages = "open".equals(CONSOLE) ? openConsole(stack) : () -> { }) {
            Duration startUp = Duration.ofNanos(stackReadyNanos(startNanos) - startNanos);
            Set<String> done = ConcurrentHashMap.newKeySet();
            stack.aws().onObjectCreated((bucket, key, size, eTag) -> JobLayout.requestIdOfResultKey(key)
                    .ifPresent(done::add));
            HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(CLIENTS, clientThreads()))
                    .build();
            URI submit = stack.apiUri().resolve("/v1/jobs");
            List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS, clientThreads());
            List<Future<Integer>> replies = new ArrayList<>();
            StackRecording recording = JFR_DIR == null ? null : StackRecording.start(stack, Path.of(JFR_DIR));
            double loadBefore = loadAverage();
            StackCpu.Snapshot cpuBefore = StackCpu.take(stack);
            long t0 = System.nanoTime();
            for (int i = 0; i < jobs; i++) {
                String json = body.apply(i);
                replies.add(clients.submit(() -> {
                    long s = System.nanoTime();
                    int status = http.send(HttpRequest.newBuilder(submit).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode();
                    latencies.add(System.nanoTime() - s);
                    return status;
                }));
            }
            int queued = 0;
            Map<Integer, Integer> others = new TreeMap<>();
            for (Future<Integer> reply : replies) {
                int status = reply.get();
                if (status == 202) {
                    queued++;
                } else {
                    others.merge(status, 1, Integer::sum);
                }
            }
            long accepted = System.nanoTime() - t0;
            int accepted202 = queued;
            awaitOrReportShortfall(await("a result per accepted job").atMost(Duration.ofMinutes(10)),
                    () -> done.size() >= accepted202);
            long finished = System.nanoTime() - t0;
            StackCpu.Snapshot cpuAfter = StackCpu.take(stack);
            double loadAfter = loadAverage();
            if (recording != null) {
                recording.close();
            }
            clients.shutdownNow();
            List<Long> sorted = new ArrayList<>(latencies);
            Collections.sort(sorted);
            System.out.printf(Locale.ROOT, "%nBENCHMARK local stack, %d %s over HTTP, %d clients, router "
                    + "environments %d, %d cores%n", jobs, what, CLIENTS, options.routerConcurrency(),
                    Runtime.getRuntime().availableProcessors());
            System.out.printf(Locale.ROOT, "  start-up (in-process, to ready): %.1f s; web console: %s%n",
                    startUp.toMillis() / 1e3, switch (CONSOLE) {
                        case "open" -> "open in headless Chromium (jobs and queues pages)";
                        case "off" -> "off (--no-console)";
                        default -> "on, no page open";
                    });
            System.out.printf(Locale.ROOT, "  API answered all in %.1f s: %.1f jobs/s; submit latency p50 %.1f ms, "
                    + "p99 %.1f ms%n", accepted / 1e9, jobs / (accepted / 1e9), pct(sorted, 0.50), pct(sorted, 0.99));
            System.out.printf(Locale.ROOT, "  answers: %d x 202 queued, other statuses: %s%n", queued, others);
            System.out.printf(Locale.ROOT, "  %d of %d results in S3 after %.1f s: %.1f jobs/s end to end%n",
                    done.size(), queued, finished / 1e9, done.size() / (finished / 1e9));
            System.out.printf(Locale.ROOT, "  load average (1 min) %.1f at the start, %.1f at the end%n", loadBefore,
                    loadAfter);
            System.out.println("  CPU time per job by component (user + system, from first submission to last "
                    + "result):");
            StackCpu.report(cpuBefore, cpuAfter, Math.max(1, done.size()), finished / 1e9)
                    .forEach(System.out::println);
            System.out.println();
            assertThat(others).as("every benchmark job is valid and must be accepted with 202").isEmpty();
            assertThat(done).as("a result for every accepted job").hasSize(queued);
        }
    }

    private long stackReadyAt;

    /** When the stack was ready: before the browser started, when one did. */
    private long stackReadyNanos(long startNanos) {
        return stackReadyAt != 0 ? stackReadyAt : System.nanoTime();
    }

    /** Headless Chromium with the console's jobs page in one window and its queues page in another. */
    private HeadlessChromium openConsole(LocalStack stack) {
        stackReadyAt = System.nanoTime();
        HeadlessChromium browser = HeadlessChromium.start();
        String console = stack.consoleUri().orElseThrow().toString();
        browser.driver().get(console + "#/jobs");
        browser.driver().switchTo().newWindow(org.openqa.selenium.WindowType.WINDOW);
        browser.driver().get(console + "#/queues");
        return browser;
    }

    private static ThreadFactory clientThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "benchmark-client-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static double pct(List<Long> sorted, double q) {
        return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size()))) / 1e6;
    }
}
