package io.gpupipe.simulator;

import java.util.List;
import java.util.Locale;

/** The results table: plain text for the terminal, Markdown for the README. */
final class Report {
    private static final String[] HEADERS = {"trace", "policy", "jobs", "first job", "p50", "p95", "p99",
        "late", "GPU h", "$ total", "$/1k jobs", "$/day"};

    private Report() {
    }

    static String text(List<RunResult> results) {
        StringBuilder out = new StringBuilder();
        String format = "%-8s %-10s %6s %10s %9s %9s %9s %6s %8s %9s %10s %9s%n";
        out.append(String.format(Locale.ROOT, format, (Object[]) HEADERS));
        for (RunResult r : results) {
            out.append(String.format(Locale.ROOT, format, (Object[]) cells(r)));
        }
        return out.toString();
    }

    static String markdown(List<RunResult> results) {
        StringBuilder out = new StringBuilder("| " + String.join(" | ", HEADERS) + " |\n|");
        out.append("---|".repeat(HEADERS.length)).append('\n');
        for (RunResult r : results) {
            out.append("| ").append(String.join(" | ", cells(r))).append(" |\n");
        }
        return out.toString();
    }

    private static String[] cells(RunResult r) {
        return new String[] {r.trace(), r.label(), Integer.toString(r.jobs()), duration(r.firstJobSeconds()),
            duration(r.p50Seconds()), duration(r.p95Seconds()), duration(r.p99Seconds()),
            Integer.toString(r.lateJobs()),
            String.format(Locale.ROOT, "%.2f", r.instanceHours()), money(r.cost()), money(r.costPerThousandJobs()),
            money(r.costPerDay())};
    }

    /**
     * What the result cache saved: each run with a hit rate next to the same trace and policy without one (same
     * seed), GPU runs and GPU instance-hours and dollars before → after and the share saved.
     */
    static String cacheSavings(List<RunResult> cached, List<RunResult> uncached, double hitRate) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%nresult cache, hit rate %.0f %%: what it "
                + "saved against no cache (same seed)%n", hitRate * 100));
        String format = "%-8s %-10s %6s %16s %7s %17s %7s %17s %7s %9s%n";
        out.append(String.format(Locale.ROOT, format, "trace", "policy", "hits", "GPU runs", "saved", "GPU h",
                "saved", "$ total", "saved", "p50"));
        for (int i = 0; i < cached.size(); i++) {
            RunResult with = cached.get(i);
            RunResult without = uncached.get(i);
            out.append(String.format(Locale.ROOT, format, with.trace(), with.label(),
                    Integer.toString(with.cacheHits()), without.gpuRuns() + " → " + with.gpuRuns(),
                    share(without.gpuRuns(), with.gpuRuns()),
                    String.format(Locale.ROOT, "%.2f → %.2f", without.instanceHours(), with.instanceHours()),
                    share(without.instanceHours(), with.instanceHours()),
                    money(without.cost()) + " → " + money(with.cost()), share(without.cost(), with.cost()),
                    duration(with.p50Seconds())));
        }
        return out.toString();
    }

    private static String share(double before, double after) {
        return before == 0 ? "-" : String.format(Locale.ROOT, "%.0f %%", 100 * (before - after) / before);
    }

    /** 7.5 s, 9m02s, 2h05m, or "never". */
    static String duration(double seconds) {
        if (Double.isNaN(seconds)) {
            return "-";
        }
        if (Double.isInfinite(seconds)) {
            return "never";
        }
        if (seconds < 60) {
            return String.format(Locale.ROOT, "%.1fs", seconds);
        }
        long s = Math.round(seconds);
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    static String money(double dollars) {
        return Double.isInfinite(dollars) ? "n/a" : String.format(Locale.ROOT, "%.2f", dollars);
    }
}
