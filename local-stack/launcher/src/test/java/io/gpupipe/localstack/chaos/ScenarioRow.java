package io.gpupipe.localstack.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** One line of the soak's table: what happened to the jobs of one scenario. */
final class ScenarioRow {
    final String label;
    int jobs;
    int succeeded;
    final Map<String, Integer> failedByCode = new TreeMap<>();
    int cancelled;
    /** Jobs whose cancel was answered 202 that still got a result (a finding line; no column of its own). */
    int cancelledButRan;
    int lost;
    int duplicateResults;
    int doubleInferences;
    int stuck;
    int unfinished;
    int statusDisagrees;
    int overRetryBound;
    int callbacksMissing;
    int deadLettersWithoutFailed;
    int poisonSent;
    int poisonInDlq;
    int refused;
    private final List<Long> latenciesNanos = new ArrayList<>();
    private long firstSubmitNanos = Long.MAX_VALUE;
    private long lastResultNanos = Long.MIN_VALUE;

    ScenarioRow(String label) {
        this.label = label;
    }

    void timing(long submittedNanos, long resultNanos) {
        firstSubmitNanos = Math.min(firstSubmitNanos, submittedNanos);
        if (resultNanos != 0) {
            latenciesNanos.add(resultNanos - submittedNanos);
            lastResultNanos = Math.max(lastResultNanos, resultNanos);
        }
    }

    void add(ScenarioRow other) {
        jobs += other.jobs;
        succeeded += other.succeeded;
        other.failedByCode.forEach((code, n) -> failedByCode.merge(code, n, Integer::sum));
        cancelled += other.cancelled;
        cancelledButRan += other.cancelledButRan;
        lost += other.lost;
        duplicateResults += other.duplicateResults;
        doubleInferences += other.doubleInferences;
        stuck += other.stuck;
        unfinished += other.unfinished;
        statusDisagrees += other.statusDisagrees;
        overRetryBound += other.overRetryBound;
        callbacksMissing += other.callbacksMissing;
        deadLettersWithoutFailed += other.deadLettersWithoutFailed;
        poisonSent += other.poisonSent;
        poisonInDlq += other.poisonInDlq;
        refused += other.refused;
        latenciesNanos.addAll(other.latenciesNanos);
        firstSubmitNanos = Math.min(firstSubmitNanos, other.firstSubmitNanos);
        lastResultNanos = Math.max(lastResultNanos, other.lastResultNanos);
    }

    /** Any invariant broken in this row (double inferences are counted, not a failure: no result is doubled). */
    boolean broken() {
        return lost > 0 || duplicateResults > 0 || cancelledButRan > 0 || stuck > 0 || unfinished > 0
                || statusDisagrees > 0
                || overRetryBound > 0 || callbacksMissing > 0 || deadLettersWithoutFailed > 0
                || poisonInDlq < poisonSent;
    }

    static String header() {
        return String.format(Locale.ROOT,
                "%-16s %6s %6s %-34s %5s %5s %5s %6s %5s %5s %8s %8s %7s %5s %5s %6s %5s %6s %5s",
                "scenario", "jobs", "ok", "failed by code", "cncl", "lost", "dup", "dblinf", "stuck", "unfin",
                "p50 ms", "p99 ms", "jobs/s", "stat", "cb", "calls>", "dlq!", "poison", "4xx");
    }

    String line() {
        List<Long> sorted = new ArrayList<>(latenciesNanos);
        Collections.sort(sorted);
        double seconds = lastResultNanos > firstSubmitNanos ? (lastResultNanos - firstSubmitNanos) / 1e9 : 0;
        String failed = failedByCode.isEmpty() ? "-" : failedByCode.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
        return String.format(Locale.ROOT,
                "%-16s %6d %6d %-34s %5d %5d %5d %6d %5d %5d %8.0f %8.0f %7.1f %5d %5d %6d %5d %6s %5d",
                label, jobs, succeeded, failed, cancelled, lost, duplicateResults, doubleInferences, stuck, unfinished,
                percentileMs(sorted, 0.50), percentileMs(sorted, 0.99),
                seconds > 0 ? sorted.size() / seconds : 0.0, statusDisagrees, callbacksMissing, overRetryBound,
                deadLettersWithoutFailed, poisonInDlq + "/" + poisonSent, refused);
    }

    private static double percentileMs(List<Long> sorted, double q) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size()))) / 1e6;
    }
}
