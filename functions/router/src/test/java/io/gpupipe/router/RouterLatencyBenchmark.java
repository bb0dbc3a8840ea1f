package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.testsupport.CallCounter;
import io.quarkus.amazon.lambda.http.LambdaHttpHandler;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.OutputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Router handler latency over 10,000 in-process API Gateway v2 events (warm JVM, after 5,000 warm-up events),
 * calling {@link LambdaHttpHandler} as the Lambda runtime does, against the in-JVM SQS/S3 endpoints; plus the SQS
 * and S3 API calls each request makes. Run: {@code ./mvnw -B -Pbenchmark -pl functions/router verify}.
 */
@QuarkusTest
@TestProfile(RouterLatencyBenchmark.CountingCalls.class)
@WithTestResource(LocalAwsTestResource.class)
class RouterLatencyBenchmark {
    /**
     * Events before the measured ones. 1,000 left the JIT compiling through the measurement (JVM CPU 10.0 ms per
     * request, p99 22.9 ms; with 5,000: 7.5 ms, 19.5 ms): the report prints the JIT's time during the measured run
     * so that a figure taken before the compiler settled shows as such.
     */
    private static final int WARM_UP = Integer.getInteger("benchmark.warm-up", 5_000);
    private static final int REQUESTS = Integer.getInteger("benchmark.requests", 10_000);
    private static final int LARGE_EVERY = Integer.getInteger("benchmark.large-every", 10);
    /**
     * Callers the requests come from in turn (JWT claims in the authorizer context): each has its own ledger of
     * unfinished jobs, which every submission reads and rewrites (docs/security.md). Nothing finishes here, so one
     * caller's ledger grows by one entry per request; {@code -Dbenchmark.callers=1} shows that worst case.
     */
    private static final int CALLERS = Integer.getInteger("benchmark.callers", 1_000);

    /**
     * Registers {@link CallCounter.Shared} on the SQS and S3 clients; sets the per-caller limit
     * {@link RouterAdmissionCostBenchmark} fills one caller under (20,000 by default: a caller of this class, even
     * the only one with {@code -Dbenchmark.callers=1}, never meets it).
     */
    public static class CountingCalls implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // the interceptor lives in test-support, a jar Quarkus does not index unless told to: unindexed, the
            // build refuses it as no ExecutionInterceptor
            return Map.of("quarkus.index-dependency.test-support.group-id", "io.gpupipe",
                    "quarkus.index-dependency.test-support.artifact-id", "test-support",
                    "quarkus.sqs.interceptors", CallCounter.Shared.class.getName(),
                    "quarkus.s3.interceptors", CallCounter.Shared.class.getName(),
                    "gpupipe.router.quota.max-unfinished-jobs", Integer.toString(RouterAdmissionCostBenchmark.LIMIT),
                    "quarkus.log.category.\"software.amazon.awssdk.request\".level",
                    System.getProperty("benchmark.sdk-log", "INFO"),
                    "quarkus.log.category.\"software.amazon.awssdk.request\".min-level", "DEBUG");
        }
    }

    @Test
    void routerHandler_latencyAndAwsCallsPerRequest() {
        LambdaHttpHandler handler = new LambdaHttpHandler();
        PrintStream console = System.out;
        LongAdder emfLines = new LongAdder();
        System.setOut(new PrintStream(OutputStream.nullOutputStream()) {
            @Override
            public void println(String line) {
                emfLines.increment();
            }
        });
        try {
            run(handler, WARM_UP, i -> submit(UUID.randomUUID().toString(), i), 202);
            List<String> ids = new ArrayList<>();
            CallCounter.SHARED.reset();
            emfLines.reset();
            Run submits = run(handler, REQUESTS, i -> {
                String id = UUID.randomUUID().toString();
                ids.add(id);
                return submit(id, i);
            }, 202);
            Map<String, Long> submitCalls = CallCounter.SHARED.calls();
            long submitAttempts = CallCounter.SHARED.attempts();
            long submitRetries = CallCounter.SHARED.retries();
            Map<String, Long> submitResponses = CallCounter.SHARED.responses();
            long metrics = emfLines.sum();

            CallCounter.SHARED.reset();
            Run statuses = run(handler, REQUESTS, i -> request("GET", "/v1/jobs/" + ids.get(i), null, i), 200);
            Map<String, Long> statusCalls = CallCounter.SHARED.calls();

            report(console, "POST /v1/jobs (new job: validate, route, marker, enqueue)", submits, submitCalls,
                    submitAttempts, submitRetries);
            console.printf("  EMF metric lines per request: %.2f%n", (double) metrics / REQUESTS);
            console.printf("  HTTP responses (operation status: count): %s%n", submitResponses);
            report(console, "GET /v1/jobs/{id} (queued job)", statuses, statusCalls,
                    CallCounter.SHARED.attempts(), CallCounter.SHARED.retries());
            assertThat(submits.unexpected().values().stream().mapToInt(Integer::intValue).sum())
                    .as("failed submissions").isLessThan(REQUESTS / 1000);
        } finally {
            System.setOut(console);
        }
    }

    /** Runs {@code count} events; answers other than {@code expectedStatus} are counted, not fatal. */
    private static Run run(LambdaHttpHandler handler, int count, IntFunction<APIGatewayV2HTTPEvent> events,
                           int expectedStatus) {
        long[] nanos = new long[count];
        long[] ownNanos = new long[count];
        Map<Integer, Integer> unexpected = new TreeMap<>();
        JvmCounters before = JvmCounters.now();
        for (int i = 0; i < count; i++) {
            APIGatewayV2HTTPEvent event = events.apply(i);
            long inCalls = CallCounter.SHARED.callNanos();
            long start = System.nanoTime();
            APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
            nanos[i] = System.nanoTime() - start;
            ownNanos[i] = nanos[i] - (CallCounter.SHARED.callNanos() - inCalls);
            if (response.getStatusCode() != expectedStatus) {
                unexpected.merge(response.getStatusCode(), 1, Integer::sum);
            }
        }
        return new Run(nanos, ownNanos, unexpected, JvmCounters.now().minus(before),
                CallCounter.SHARED.callDurations());
    }

    /**
     * Per-request latencies, and the part of each spent outside SDK calls (the router's own work: API Gateway
     * event, validation, routing, JSON, tracing, metrics); the count of unexpected answers by status; what the JVM
     * spent meanwhile; each SDK call's duration by operation.
     */
    private record Run(long[] nanos, long[] ownNanos, Map<Integer, Integer> unexpected, JvmCounters jvm,
                       Map<String, long[]> callNanos) {
    }

    /** This JVM's CPU time, garbage collections (count, total pause time) and JIT time, to explain the tail. */
    private record JvmCounters(long cpuNanos, long collections, long collectionMillis, long jitMillis) {
        static JvmCounters now() {
            long count = 0;
            long millis = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                count += Math.max(0, gc.getCollectionCount());
                millis += Math.max(0, gc.getCollectionTime());
            }
            long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
            long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
            return new JvmCounters(cpu, count, millis, jit);
        }

        JvmCounters minus(JvmCounters earlier) {
            return new JvmCounters(cpuNanos - earlier.cpuNanos, collections - earlier.collections,
                    collectionMillis - earlier.collectionMillis, jitMillis - earlier.jitMillis);
        }
    }

    private static APIGatewayV2HTTPEvent submit(String id, int i) {
        // one job in ten is large (maxTokens above 1024), as a realistic mix; prompts vary in length
        int maxTokens = LARGE_EVERY > 0 && i % LARGE_EVERY == 0 ? 2048 : 128;
        String prompt = "Explain GPU inference optimization technique number " + i + ". ".repeat(1 + i % 40);
        return request("POST", "/v1/jobs", "{\"requestId\":\"" + id + "\",\"prompt\":\"" + prompt
                + "\",\"maxTokens\":" + maxTokens + ",\"temperature\":0.7}", i);
    }

    /** The event of request {@code i}, from caller {@code i % CALLERS} as API Gateway's JWT authorizer names it. */
    private static APIGatewayV2HTTPEvent request(String method, String path, String body, int i) {
        return RouterEvents.request(method, path, body, "caller-" + (i % CALLERS));
    }

    private static void report(PrintStream out, String title, Run run, Map<String, Long> calls, long attempts,
                               long retries) {
        long[] sorted = run.nanos().clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(sorted).average().orElse(0) / 1e6;
        out.printf("%n=== Router benchmark: %s, %,d requests, warm JVM ===%n", title, sorted.length);
        out.printf("  latency ms: p50 %.2f | p90 %.2f | p99 %.2f | max %.2f | mean %.2f%n",
                percentile(sorted, 50), percentile(sorted, 90), percentile(sorted, 99),
                sorted[sorted.length - 1] / 1e6, mean);
        long[] own = run.ownNanos().clone();
        Arrays.sort(own);
        out.printf("  of which outside SDK calls (the router's own work) ms: p50 %.2f | p99 %.2f | max %.2f%n",
                percentile(own, 50), percentile(own, 99), own[own.length - 1] / 1e6);
        run.callNanos().forEach((name, durations) -> {
            long[] sortedCall = durations.clone();
            Arrays.sort(sortedCall);
            out.printf("  SDK call %-18s ms: p50 %.2f | p99 %.2f | max %.2f (%,d calls)%n", name,
                    percentile(sortedCall, 50), percentile(sortedCall, 99), sortedCall[sortedCall.length - 1] / 1e6,
                    sortedCall.length);
        });
        out.printf("  unexpected answers by status: %s%n", run.unexpected());
        out.printf("  requests over 20 ms: %d; JVM CPU %.2f ms per request (handler, SDK, in-JVM SQS and S3); GC: %d "
                + "collections, %d ms in all (%s); JIT compiling %d ms; load average %.1f%n", Arrays.stream(sorted)
                .filter(n -> n > 20_000_000L).count(), run.jvm().cpuNanos() / 1e6 / sorted.length,
                run.jvm().collections(), run.jvm().collectionMillis(), ManagementFactory.getGarbageCollectorMXBeans()
                .stream().map(GarbageCollectorMXBean::getName).toList(), run.jvm().jitMillis(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        long total = calls.values().stream().mapToLong(Long::longValue).sum();
        out.printf("  SQS+S3 API calls per request: %.3f (HTTP attempts %.3f)%n", (double) total / sorted.length,
                (double) attempts / sorted.length);
        calls.forEach((name, count) -> out.printf("    %-20s %.3f%n", name, (double) count / sorted.length));
        out.printf("  retried HTTP attempts: %d (%.4f per request; goal 0)%n", retries,
                (double) retries / sorted.length);
    }

    private static double percentile(long[] sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)] / 1e6;
    }
}
