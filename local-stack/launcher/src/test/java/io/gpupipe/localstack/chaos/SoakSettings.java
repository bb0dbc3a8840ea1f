package io.gpupipe.localstack.chaos;

import java.time.Duration;
import java.util.Locale;

/**
 * The soak's size and pace, from system properties: {@code chaos.jobs} (jobs over all scenarios),
 * {@code chaos.time-scale} (multiplies every fault's nominal duration: 30 s outages, a 60 s webhook outage; the short
 * variant compresses time), {@code chaos.clients} (concurrent HTTP clients), {@code chaos.router-die-ratio} (the
 * router's die-after-marker fault hook, for the whole run), {@code chaos.settle-limit-seconds} (how long the end
 * waits for quiescence).
 */
public record SoakSettings(int jobs, double timeScale, int clients, double routerDieRatio, Duration settleLimit) {
    /** The short variant that the normal test phase (and CI) runs. */
    public static final int SHORT_JOBS = 260;
    public static final double SHORT_TIME_SCALE = 0.1;

    public static SoakSettings fromSystemProperties() {
        int jobs = Integer.getInteger("chaos.jobs", SHORT_JOBS);
        double scale = Double.parseDouble(System.getProperty("chaos.time-scale",
                Double.toString(jobs <= SHORT_JOBS ? SHORT_TIME_SCALE : 1.0)));
        int clients = Integer.getInteger("chaos.clients", 8);
        double dieRatio = Double.parseDouble(System.getProperty("chaos.router-die-ratio", "0.02"));
        Duration settle = Duration.ofSeconds(Long.getLong("chaos.settle-limit-seconds", jobs <= SHORT_JOBS ? 90 : 600));
        return new SoakSettings(jobs, scale, clients, dieRatio, settle);
    }

    /** A fault's nominal duration, compressed by the time scale (never below 1 s). */
    public Duration scaled(Duration nominal) {
        return Duration.ofMillis(Math.max(1000, Math.round(nominal.toMillis() * timeScale)));
    }

    public String describe() {
        return String.format(Locale.ROOT, "%d jobs, %d clients, time scale %.2f (a 30 s fault lasts %.1f s, the "
                + "60 s webhook outage %.1f s), router die-after-marker ratio %.3f", jobs, clients, timeScale,
                scaled(Duration.ofSeconds(30)).toMillis() / 1e3, scaled(Duration.ofSeconds(60)).toMillis() / 1e3,
                routerDieRatio);
    }
}
