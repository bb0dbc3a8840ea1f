package io.gpupipe.router.internal;

import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.owner.Owner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;

/**
 * The per-caller limit on upload URLs ({@code POST /v1/batches/uploads}): at most {@code perHour} in each UTC hour,
 * counted by the grant objects of that hour ({@link BatchLayout#uploadGrantsPrefix}): one LIST and one empty PUT per
 * URL handed out, nothing on any other path. The count and the grant are not one atomic step, so requests of one
 * caller racing at the limit may each pass: over-admission is bounded by that caller's concurrent requests. The
 * window is the clock hour, so across an hour's end a caller may get up to twice {@code perHour} in a short time.
 */
public final class UploadGrants {
    private final BatchStore store;
    private final int perHour;
    private final Clock clock;

    public UploadGrants(BatchStore store, int perHour, Clock clock) {
        if (perHour < 1) {
            throw new IllegalArgumentException("uploads per hour must be at least 1, got " + perHour);
        }
        this.store = store;
        this.perHour = perHour;
        this.clock = clock;
    }

    /** No limit (tests and tools that build a batch service without one). */
    public static UploadGrants unlimited() {
        return new UploadGrants(null, Integer.MAX_VALUE, Clock.systemUTC());
    }

    public int perHour() {
        return perHour;
    }

    /**
     * Records the grant of {@code upload} to {@code owner} when the owner has had fewer than {@code perHour} this
     * hour; otherwise records nothing and answers how long until the next hour starts.
     */
    public Optional<Duration> take(Owner owner, UUID upload) {
        if (store == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        long hour = now.getEpochSecond() / ChronoUnit.HOURS.getDuration().getSeconds();
        if (store.list(BatchLayout.uploadGrantsPrefix(owner, hour)).size() >= perHour) {
            return Optional.of(Duration.between(now, Instant.ofEpochSecond((hour + 1) * 3600)));
        }
        store.createEmpty(BatchLayout.uploadGrantKey(owner, hour, upload));
        return Optional.empty();
    }
}
