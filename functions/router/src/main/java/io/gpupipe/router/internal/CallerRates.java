package io.gpupipe.router.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The per-caller request rate of one router instance: a token bucket per caller holding up to {@code burst}
 * requests, refilled at {@code perSecond}. A request takes a token or is refused with the wait until the next one.
 * Buckets live in this instance's memory only (no AWS call per request), so with N warm instances serving one caller
 * it may reach N times the rate; an instance that starts anew starts every caller with a full bucket. The least
 * recently seen callers' buckets are dropped beyond {@code maxCallers} (a dropped bucket was idle the longest, so it
 * would have refilled anyway unless the instance serves that many busier callers).
 */
public final class CallerRates {
    /** Callers whose buckets one instance keeps (a few hundred kB at most). */
    public static final int MAX_CALLERS = 10_000;

    /**
     * A token, in the units a bucket counts in: a nanosecond of refill at one thousandth of a request per second
     * adds one, so the arithmetic is exact in whole numbers.
     */
    private static final long TOKEN = 1_000_000_000_000L;
    private static final int MAX_BURST = 9_000_000;

    private final double perSecond;
    private final long perNanosecond;
    private final long capacity;
    private final Clock clock;
    private final Map<String, Bucket> buckets;

    /** {@code perSecond} to the thousandth of a request (0.5 is one request every 2 s). */
    public CallerRates(double perSecond, int burst, int maxCallers, Clock clock) {
        long milliRequestsPerSecond = Math.round(perSecond * 1000);
        if (milliRequestsPerSecond < 1 || burst < 1 || burst > MAX_BURST || maxCallers < 1) {
            throw new IllegalArgumentException("a caller rate needs at least 0.001 requests per second, a burst of 1"
                    + " to " + MAX_BURST + " and room for a caller; got " + perSecond + "/s, burst " + burst + ", "
                    + maxCallers + " callers");
        }
        this.perSecond = perSecond;
        this.perNanosecond = milliRequestsPerSecond;
        this.capacity = burst * TOKEN;
        this.clock = clock;
        this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
                return size() > maxCallers;
            }
        };
    }

    /** Takes one of {@code caller}'s tokens: empty when there was one, else how long until there is. */
    public synchronized Optional<Duration> take(String caller) {
        Instant now = clock.instant();
        Bucket bucket = buckets.computeIfAbsent(caller, c -> new Bucket(capacity, now));
        bucket.refill(now, perNanosecond, capacity);
        if (bucket.credit >= TOKEN) {
            bucket.credit -= TOKEN;
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos((TOKEN - bucket.credit + perNanosecond - 1) / perNanosecond));
    }

    public double perSecond() {
        return perSecond;
    }

    /** A caller's bucket: its credit in {@link #TOKEN} units, as of {@code refilled}. */
    private static final class Bucket {
        private long credit;
        private Instant refilled;

        Bucket(long credit, Instant refilled) {
            this.credit = credit;
            this.refilled = refilled;
        }

        void refill(Instant now, long perNanosecond, long capacity) {
            if (now.isAfter(refilled)) {
                long nanos = Duration.between(refilled, now).toNanos();
                long room = capacity - credit;
                // a long idle bucket is full whatever the product: cap before multiplying
                credit = nanos > room / perNanosecond ? capacity : Math.min(capacity, credit + nanos * perNanosecond);
                refilled = now;
            }
        }
    }
}
