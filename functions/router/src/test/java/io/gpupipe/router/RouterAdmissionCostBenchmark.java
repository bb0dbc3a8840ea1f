package io.gpupipe.router;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.testsupport.CallCounter;
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
import org.junit.jupiter.api.Test;

/**
 * What one admission costs one caller as its unfinished jobs grow: the S3 and SQS calls and the bytes they move
 * (request and response, headers and bodies, counted by {@link CallCounter} on the router's SDK clients), measured
 * through the API only, whatever the router keeps per caller. Nothing finishes here (no workers, no notifier), so the
 * caller's submissions stay unfinished: it is filled to each point of {@code -Dbenchmark.unfinished} (10, 1,000 and
 * 10,000) by concurrent POSTs, then {@code -Dbenchmark.admissions} (20) more are measured one at a time. The
 * per-caller limit ({@code -Dbenchmark.limit}) is twice the last point, so no point is near it. Shares
 * {@link RouterLatencyBenchmark}'s profile, hence its Quarkus application. A refused request's cost is
 * {@link RouterRefusalBenchmark}'s.
 */
@QuarkusTest
@TestProfile(RouterLatencyBenchmark.CountingCalls.class)
@WithTestResource(LocalAwsTestResource.class)
class RouterAdmissionCostBenchmark {
    private static final int[] UNFINISHED = Arrays.stream(System.getProperty("benchmark.unfinished", "10,1000,10000")
            .split(",")).mapToInt(n -> Integer.parseInt(n.trim())).sorted().toArray();
    private static final int ADMISSIONS = Integer.getInteger("benchmark.admissions", 20);
    /** Concurrent POSTs filling the caller: two cores, so more only adds contention. */
    static final int FILL_THREADS = Integer.getInteger("benchmark.fill-threads", 2);
    /** Flat: the largest figure at most this much above the smallest. */
    private static final double FLAT = 1.10;

    /** The per-caller limit on unfinished jobs in this profile. */
    static final int LIMIT = Integer.getInteger("benchmark.limit", 2 * UNFINISHED[UNFINISHED.length - 1]);

    @Test
    void oneCaller_admissionCostByUnfinishedJobs() throws Exception {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream())); // the router's metric lines
        try {
            OneCallerRounds caller = new OneCallerRounds();
            int unfinished = 0;
            List<String> rows = new ArrayList<>();
            List<OneCallerRounds.Round> rounds = new ArrayList<>();
            for (int point : UNFINISHED) {
                long started = System.nanoTime();
                Map<Integer, Integer> fillAnswers = caller.fill(point - unfinished, FILL_THREADS);
                double fillSeconds = (System.nanoTime() - started) / 1e9;
                OneCallerRounds.Round round = caller.round(ADMISSIONS);
                rounds.add(round);
                rows.add(String.format("  %,10d | %,12.0f (%,.0f sent, %,.0f received) | %5.2f | %6.2f | %6.2f | %s "
                        + "| %s; filled %,d in %.1f s (%s)", point, round.bytesEach(),
                        round.sent() / (double) ADMISSIONS, round.received() / (double) ADMISSIONS, round.callsEach(), round.p(50), round.p(99),
                        round.callsByOperation(), round.statuses(), point - unfinished, fillSeconds, fillAnswers));
                unfinished = point + ADMISSIONS;
            }
            console.printf("%n=== Router benchmark: one caller's admission cost by its unfinished jobs (%d admissions "
                    + "one at a time at each point, limit %,d; load average %.1f) ===%n", ADMISSIONS, LIMIT,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            console.println("  unfinished | bytes per admission | calls per admission | p50 ms | p99 ms | calls by "
                    + "operation | answers; the fill before it (answers, 503s retried)");
            rows.forEach(console::println);
            double bytesSpread = spread(rounds.stream().mapToDouble(OneCallerRounds.Round::bytesEach).toArray());
            double callsSpread = spread(rounds.stream().mapToDouble(OneCallerRounds.Round::callsEach).toArray());
            console.printf("  bytes per admission, largest / smallest: %.2f: flat within 10 %%: %s%n", bytesSpread,
                    bytesSpread <= FLAT ? "PASS" : "FAIL");
            console.printf("  calls per admission, largest / smallest: %.2f: flat within 10 %%: %s%n", callsSpread,
                    callsSpread <= FLAT ? "PASS" : "FAIL");
        } finally {
            System.setOut(console);
        }
    }

    private static double spread(double[] figures) {
        return Arrays.stream(figures).max().orElse(0) / Math.max(1e-9, Arrays.stream(figures).min().orElse(0));
    }
}
