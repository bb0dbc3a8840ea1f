package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.testsupport.CallCounter;
import io.quarkus.amazon.lambda.http.LambdaHttpHandler;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What one admission costs one caller as its unfinished jobs grow, and what a refused one costs once it reaches its
 * limit: the S3 and SQS calls and the bytes they move (request and response, headers and bodies, counted by
 * {@link CallCounter} on the router's SDK clients), measured through the API only, whatever the router keeps per
 * caller. Nothing finishes here (no workers, no notifier), so the caller's submissions stay unfinished: it is filled
 * to each point of {@code -Dbenchmark.unfinished} (10, 1,000 and 10,000) by concurrent POSTs, then
 * {@code -Dbenchmark.admissions} (20) more are measured one at a time. The limit is set one such round above the last
 * point, so the caller is then at it and {@code -Dbenchmark.refusals} (500) more submissions measure a 429.
 * Shares {@link RouterLatencyBenchmark}'s profile, hence its Quarkus application.
 */
@QuarkusTest
@TestProfile(RouterLatencyBenchmark.CountingCalls.class)
@WithTestResource(LocalAwsTestResource.class)
class RouterAdmissionCostBenchmark {
    private static final int[] UNFINISHED = Arrays.stream(System.getProperty("benchmark.unfinished", "10,1000,10000")
            .split(",")).mapToInt(n -> Integer.parseInt(n.trim())).sorted().toArray();
    private static final int ADMISSIONS = Integer.getInteger("benchmark.admissions", 20);
    private static final int REFUSALS = Integer.getInteger("benchmark.refusals", 500);
    /** Concurrent POSTs filling the caller: two cores, so more only adds contention. */
    private static final int FILL_THREADS = Integer.getInteger("benchmark.fill-threads", 2);
    /** 503 answers (the store busy) a filling POST retries, as a client would, under the same requestId. */
    private static final int FILL_ATTEMPTS = 20;
    /** Flat: the largest figure at most this much above the smallest. */
    private static final double FLAT = 1.10;
    private static final int REFUSED_CALLS_GOAL = 2;

    /** The per-caller limit on unfinished jobs in this profile: the caller is at it after the last measured round. */
    static final int LIMIT = UNFINISHED[UNFINISHED.length - 1] + ADMISSIONS;

    private final LambdaHttpHandler handler = new LambdaHttpHandler();
    private final String caller = "caller-growing-" + UUID.randomUUID();

    /** The calls and bytes of {@code count} requests made one at a time, and their latencies. */
    private record Round(int count, Map<String, Long> calls, long sent, long received, long[] nanos,
                         Map<Integer, Integer> statuses, boolean retryAfterOnEach) {
        double callsEach() {
            return calls.values().stream().mapToLong(Long::longValue).sum() / (double) count;
        }

        double bytesEach() {
            return (sent + received) / (double) count;
        }

        double p(int percentile) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            return sorted[Math.max(0, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1)] / 1e6;
        }
    }

    @Test
    void oneCaller_admissionCostByUnfinishedJobs_thenRefusalsAtTheLimit() throws Exception {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream())); // the router's metric lines
        try {
            int unfinished = 0;
            List<String> rows = new ArrayList<>();
            List<Round> rounds = new ArrayList<>();
            for (int point : UNFINISHED) {
                long started = System.nanoTime();
                Map<Integer, Integer> fillAnswers = fill(point - unfinished);
                double fillSeconds = (System.nanoTime() - started) / 1e9;
                Round round = round(ADMISSIONS);
                rounds.add(round);
                rows.add(String.format("  %,10d | %,12.0f (%,.0f sent, %,.0f received) | %5.2f | %6.2f | %6.2f | %s "
                        + "| %s; filled %,d in %.1f s (%s)", point, round.bytesEach(), round.sent() / (double) ADMISSIONS,
                        round.received() / (double) ADMISSIONS, round.callsEach(), round.p(50), round.p(99),
                        perRequest(round), round.statuses(), point - unfinished, fillSeconds, fillAnswers));
                unfinished = point + ADMISSIONS;
            }
            Round refused = round(REFUSALS);

            console.printf("%n=== Router benchmark: one caller's admission cost by its unfinished jobs (%d admissions "
                    + "one at a time at each point, limit %,d; load average %.1f) ===%n", ADMISSIONS, LIMIT,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            console.println("  unfinished | bytes per admission | calls per admission | p50 ms | p99 ms | calls by "
                    + "operation | answers; the fill before it (answers, 503s retried)");
            rows.forEach(console::println);
            double bytesSpread = spread(rounds.stream().mapToDouble(Round::bytesEach).toArray());
            double callsSpread = spread(rounds.stream().mapToDouble(Round::callsEach).toArray());
            console.printf("  bytes per admission, largest / smallest: %.2f: flat within 10 %%: %s%n", bytesSpread,
                    bytesSpread <= FLAT ? "PASS" : "FAIL");
            console.printf("  calls per admission, largest / smallest: %.2f: flat within 10 %%: %s%n", callsSpread,
                    callsSpread <= FLAT ? "PASS" : "FAIL");
            console.printf("%n=== Router benchmark: a caller at its limit (%,d unfinished) submitting more, %d requests "
                    + "one at a time ===%n", LIMIT, REFUSALS);
            console.printf("  answers %s, each with Retry-After: %s%n", refused.statuses(), refused.retryAfterOnEach());
            console.printf("  latency ms: p50 %.2f | p99 %.2f%n", refused.p(50), refused.p(99));
            console.printf("  bytes per refused request: %,.0f (%,.0f sent, %,.0f received)%n", refused.bytesEach(),
                    refused.sent() / (double) REFUSALS, refused.received() / (double) REFUSALS);
            console.printf("  SQS+S3 calls per refused request: %.2f %s: at most %d: %s%n", refused.callsEach(),
                    perRequest(refused), REFUSED_CALLS_GOAL, refused.callsEach() <= REFUSED_CALLS_GOAL ? "PASS" : "FAIL");
            assertThat(refused.statuses()).as("a caller at its limit is refused").containsOnlyKeys(429);
        } finally {
            System.setOut(console);
        }
    }

    /** {@code count} new jobs of the caller by concurrent POSTs; the answers by status (503s retried). */
    private Map<Integer, Integer> fill(int count) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(FILL_THREADS);
        try {
            List<Future<List<Integer>>> answers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String id = UUID.randomUUID().toString();
                answers.add(threads.submit(() -> {
                    List<Integer> statuses = new ArrayList<>();
                    for (int attempt = 0; attempt < FILL_ATTEMPTS; attempt++) {
                        int status = handler.handleRequest(submit(id), null).getStatusCode();
                        statuses.add(status);
                        if (status != 503) {
                            break;
                        }
                    }
                    return statuses;
                }));
            }
            Map<Integer, Integer> byStatus = new TreeMap<>();
            for (Future<List<Integer>> answer : answers) {
                answer.get().forEach(status -> byStatus.merge(status, 1, Integer::sum));
            }
            return byStatus;
        } finally {
            threads.shutdownNow();
        }
    }

    private Round round(int count) {
        CallCounter.SHARED.reset();
        long[] nanos = new long[count];
        Map<Integer, Integer> statuses = new TreeMap<>();
        boolean retryAfter = true;
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            APIGatewayV2HTTPResponse response = handler.handleRequest(submit(UUID.randomUUID().toString()), null);
            nanos[i] = System.nanoTime() - start;
            statuses.merge(response.getStatusCode(), 1, Integer::sum);
            retryAfter &= response.getStatusCode() != 429 || response.getHeaders().keySet().stream()
                    .anyMatch("Retry-After"::equalsIgnoreCase);
        }
        return new Round(count, CallCounter.SHARED.calls(), CallCounter.SHARED.requestBytes(),
                CallCounter.SHARED.responseBytes(), nanos, statuses, retryAfter);
    }

    private APIGatewayV2HTTPEvent submit(String id) {
        return RouterEvents.request("POST", "/v1/jobs", "{\"requestId\":\"" + id
                + "\",\"prompt\":\"Wait in the queue.\",\"maxTokens\":16}", caller);
    }

    private static String perRequest(Round round) {
        Map<String, String> each = new TreeMap<>();
        round.calls().forEach((name, count) -> each.put(name, String.format("%.2f", count / (double) round.count())));
        return each.toString();
    }

    private static double spread(double[] figures) {
        return Arrays.stream(figures).max().orElse(0) / Math.max(1e-9, Arrays.stream(figures).min().orElse(0));
    }
}
