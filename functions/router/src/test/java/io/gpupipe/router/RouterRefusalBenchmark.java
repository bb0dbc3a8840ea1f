package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a refused submission costs: a caller at its limit on unfinished jobs ({@code -Dbenchmark.refusal-limit},
 * 1,000) submitting {@code -Dbenchmark.refusals} (500) more, one at a time: the answers (429 with
 * {@code Retry-After}), latency, and the S3 and SQS calls and bytes of each. The caller is filled to the limit by
 * concurrent POSTs through the API first, so the figure holds whatever the router keeps per caller. Goal: at most 2
 * calls per refused request (printed, not asserted).
 */
@QuarkusTest
@TestProfile(RouterRefusalBenchmark.AtLimit.class)
@WithTestResource(LocalAwsTestResource.class)
class RouterRefusalBenchmark {
    private static final int LIMIT = Integer.getInteger("benchmark.refusal-limit", 1_000);
    private static final int REFUSALS = Integer.getInteger("benchmark.refusals", 500);
    private static final int CALLS_GOAL = 2;

    /** {@link RouterLatencyBenchmark.CountingCalls} with a limit one caller reaches in a minute. */
    public static class AtLimit extends RouterLatencyBenchmark.CountingCalls {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("gpupipe.router.quota.max-unfinished-jobs", Integer.toString(LIMIT));
            return overrides;
        }
    }

    @Test
    void callerAtItsLimit_refusedSubmissions() throws Exception {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream())); // the router's metric lines
        try {
            OneCallerRounds caller = new OneCallerRounds();
            long started = System.nanoTime();
            Map<Integer, Integer> fillAnswers = caller.fill(LIMIT, RouterAdmissionCostBenchmark.FILL_THREADS);
            double fillSeconds = (System.nanoTime() - started) / 1e9;
            OneCallerRounds.Round refused = caller.round(REFUSALS);

            console.printf("%n=== Router benchmark: a caller at its limit (%,d unfinished) submitting more, %d "
                    + "requests one at a time (load average %.1f) ===%n", LIMIT, REFUSALS,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            console.printf("  filled in %.1f s: %s (503s retried)%n", fillSeconds, fillAnswers);
            console.printf("  answers %s, each 429 with Retry-After: %s%n", refused.statuses(),
                    refused.retryAfterOnEach());
            console.printf("  latency ms: p50 %.2f | p99 %.2f%n", refused.p(50), refused.p(99));
            console.printf("  bytes per refused request: %,.0f (%,.0f sent, %,.0f received)%n", refused.bytesEach(),
                    refused.sent() / (double) REFUSALS, refused.received() / (double) REFUSALS);
            console.printf("  SQS+S3 calls per refused request: %.2f %s: at most %d: %s%n", refused.callsEach(),
                    refused.callsByOperation(), CALLS_GOAL, refused.callsEach() <= CALLS_GOAL ? "PASS" : "FAIL");
            assertThat(refused.statuses()).as("a caller at its limit is refused").containsOnlyKeys(429);
        } finally {
            System.setOut(console);
        }
    }
}
