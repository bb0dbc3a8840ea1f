package io.gpupipe.simulator;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.routing.RoutingThresholds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The bundled traces (deterministic for a seed) and CSV traces. Bundled ones start on Monday 2026-11-30 (UTC) and
 * send text jobs of 64, 128 or 256 tokens to the catalogue's default text tier.
 */
public final class Traces {
    /** A Monday, so the week trace has its weekend at the end. */
    public static final Instant MONDAY = Instant.parse("2026-11-30T00:00:00Z");
    static final int[] TOKENS = {64, 128, 256};
    private static final double HOUR = 3600;
    /** Where the catalogue routes a text job that asks for nothing special. */
    static final Tier TEXT = TierCatalogue.bundled().defaultTier(Task.GENERATE);

    private Traces() {
    }

    /** Every bundled trace, in the README's order. */
    public static List<Trace> bundled(long seed) {
        return List.of(lone(), five(), poissonBursts(seed), businessDay(seed), week(seed));
    }

    /** Seconds into the minute the small traces' jobs arrive: not on a metric tick. */
    static final double OFF_TICK = 17;

    /** One job at 10:00:17 on a Monday. */
    public static Trace lone() {
        return new Trace("lone", "one job", MONDAY.plus(Duration.ofHours(10)), 2 * HOUR,
                List.of(new Job(0, OFF_TICK, TEXT, 128)));
    }

    /** Five jobs within 10 s (seed 001's threshold: depth/5 never exceeds 1.0). */
    public static Trace five() {
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            jobs.add(new Job(i, OFF_TICK + 2.0 * i, TEXT, 128));
        }
        return new Trace("five", "5 jobs in 10 s", MONDAY.plus(Duration.ofHours(10)), 2 * HOUR, jobs);
    }

    /** A day of bursts: Poisson burst starts (mean gap 90 min), 5–60 jobs each within a minute. */
    public static Trace poissonBursts(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Job> jobs = new ArrayList<>();
        double t = exponential(random, 1.5 * HOUR);
        while (t < 22 * HOUR) {
            int size = random.nextInt(5, 61);
            for (int i = 0; i < size; i++) {
                jobs.add(new Job(jobs.size(), t + random.nextDouble(60), TEXT, TOKENS[random.nextInt(3)]));
            }
            t += exponential(random, 1.5 * HOUR);
        }
        return new Trace("bursts", "Poisson bursts of 5-60 jobs, ~every 90 min", MONDAY, 24 * HOUR, jobs);
    }

    /** A weekday: 300 jobs/h 08:00–18:00 UTC, 6 jobs/h otherwise. */
    public static Trace businessDay(long seed) {
        return new Trace("day", "business day: 300/h 08-18, 6/h at night", MONDAY, 24 * HOUR,
                poisson(new SplittableRandom(seed), 24 * HOUR));
    }

    /** Monday–Sunday: business days, then a weekend at 6 jobs/h. */
    public static Trace week(long seed) {
        return new Trace("week", "5 business days + weekend at 6/h", MONDAY, 7 * 24 * HOUR,
                poisson(new SplittableRandom(seed), 7 * 24 * HOUR));
    }

    private static List<Job> poisson(SplittableRandom random, double horizon) {
        List<Job> jobs = new ArrayList<>();
        double t = 0;
        while (true) {
            t += exponential(random, HOUR / rate(t));
            if (t >= horizon - HOUR) {
                return jobs;
            }
            jobs.add(new Job(jobs.size(), t, TEXT, TOKENS[random.nextInt(3)]));
        }
    }

    /** Jobs per hour at {@code t} seconds after Monday 00:00 UTC. */
    static double rate(double t) {
        Instant at = MONDAY.plusSeconds((long) t);
        DayOfWeek day = at.atZone(ZoneOffset.UTC).getDayOfWeek();
        int hour = at.atZone(ZoneOffset.UTC).getHour();
        boolean weekday = day != DayOfWeek.SATURDAY && day != DayOfWeek.SUNDAY;
        return weekday && hour >= 8 && hour < 18 ? 300 : 6;
    }

    private static double exponential(SplittableRandom random, double mean) {
        return -Math.log(1 - random.nextDouble()) * mean;
    }

    /**
     * A CSV of arrivals: {@code timestamp[,promptChars[,maxTokens]]}, one per line, an optional header line and
     * {@code #} comments. The timestamp is an ISO-8601 instant or seconds after the first arrival. Jobs go to the
     * tier the router would pick (prompt > 2,000 chars or maxTokens > 1,024 → the catalogue's escalation tier; seed
     * 001's table).
     */
    public static Trace csv(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + file, e);
        }
        List<double[]> rows = new ArrayList<>();
        Instant first = null;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).trim();
            if (line.isEmpty() || line.startsWith("#") || (rows.isEmpty() && first == null
                    && Character.isLetter(line.charAt(0)))) {
                continue;
            }
            String[] f = line.split(",");
            try {
                double at;
                if (f[0].contains("T")) {
                    Instant instant = Instant.parse(f[0].trim());
                    first = first == null ? instant : first;
                    at = Duration.between(first, instant).toMillis() / 1000.0;
                } else {
                    at = Double.parseDouble(f[0].trim());
                }
                double prompt = f.length > 1 && !f[1].isBlank() ? Double.parseDouble(f[1].trim()) : 100;
                double tokens = f.length > 2 && !f[2].isBlank() ? Double.parseDouble(f[2].trim()) : 128;
                rows.add(new double[] {at, prompt, tokens});
            } catch (NumberFormatException | DateTimeParseException e) {
                throw new IllegalArgumentException(file + " line " + (n + 1) + ": expected "
                        + "timestamp[,promptChars[,maxTokens]], got '" + line + "'", e);
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(file + ": no arrivals");
        }
        double origin = rows.stream().mapToDouble(r -> r[0]).min().orElse(0);
        RoutingThresholds routing = RoutingThresholds.DEFAULTS;
        List<Job> jobs = new ArrayList<>();
        double last = 0;
        for (double[] r : rows) {
            boolean large = r[1] > routing.largePromptChars() || r[2] > routing.largeMaxTokens();
            double at = r[0] - origin;
            last = Math.max(last, at);
            jobs.add(new Job(jobs.size(), at, large ? TierCatalogue.bundled().escalationTier() : TEXT, (int) r[2]));
        }
        Instant start = first != null ? first : MONDAY;
        String name = file.getFileName().toString().replaceAll("\\.csv$", "");
        return new Trace(name, "CSV " + file.getFileName(), start, last + 2 * HOUR, jobs);
    }
}
