package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.port.JobSlots.StoredSlot;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.QuotaSlot;
import io.gpupipe.model.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The rules of a caller's job slots, without I/O: a caller with limit L has slots 0..L-1 and a job is admitted by
 * claiming a free one. Which slot to try first (a random one), which slots one listing reads when it was taken, what
 * is free among them, which slots a refused caller re-checks in a given minute, and whether a slot read is still held
 * by a job that has not ended.
 */
public final class SlotRules {
    /** S3 lists at most 1,000 keys per call: the most slots one listing can show. */
    public static final int LISTING = 1_000;
    /**
     * The longest any Lambda invocation runs: a slot younger than this whose job has no marker yet may belong to a
     * submission still between its slot and its marker, so it is not judged ended for want of a marker.
     */
    public static final Duration SETTLE = Duration.ofMinutes(15);

    private SlotRules() {
    }

    /**
     * Random slots a submission tries before it lists. A caller whose slots are a fraction f taken needs 1 / (1 - f)
     * tries on average (2 at half full) and lists only when all of them met taken slots (f^8: 0.4 % at half full), so
     * its bytes hardly grow with its count: a probe moves one ~100-byte object, a listing up to 1,000 keys.
     */
    public static final int PROBES = 8;

    /** The slot a submission tries: any of the {@code limit}, at random, so that concurrent ones spread. */
    public static int probe(int limit, RandomGenerator random) {
        return random.nextInt(limit);
    }

    /**
     * How many random slots to try before listing: {@link #PROBES} (at most one per slot). For a caller this router
     * instance refused within its Retry-After none when one listing shows all its slots (the listing alone decides,
     * exactly), otherwise one ({@link #listsAfterRefusal}), so that a caller at its limit costs one call per refused
     * request.
     */
    public static int probes(int limit, boolean refusedRecently) {
        if (refusedRecently) {
            return listsAfterRefusal(limit) ? 0 : 1;
        }
        return Math.min(PROBES, limit);
    }

    /**
     * Whether a caller refused within its Retry-After is listed: only when one listing shows every slot ({@code limit}
     * ≤ {@link #LISTING}), so that a slot freed meanwhile is found at once; above that, its one random slot decides
     * until the Retry-After has passed.
     */
    public static boolean listsAfterRefusal(int limit) {
        return limit <= LISTING;
    }

    /** {@code count} consecutive slots from {@code first}. */
    public record Window(int first, int count) {
        public Window {
            if (first < 0 || count < 1) {
                throw new IllegalArgumentException("a window starts at slot 0 or later and has at least one slot");
            }
        }

        /** The slots of this window that are not {@code taken}, in random order (the order to try them in). */
        public List<Integer> free(Set<Integer> taken, RandomGenerator random) {
            List<Integer> free = new ArrayList<>();
            for (int slot = first; slot < first + count; slot++) {
                if (!taken.contains(slot)) {
                    free.add(slot);
                }
            }
            for (int i = free.size() - 1; i > 0; i--) {
                Collections.swap(free, i, random.nextInt(i + 1));
            }
            return free;
        }
    }

    /**
     * The slots one listing reads after the probes met taken ones: all {@code limit} when they fit one listing (the
     * answer "full" is then exact), otherwise {@link #LISTING} consecutive slots from a random start.
     */
    public static Window listed(int limit, RandomGenerator random) {
        if (limit <= LISTING) {
            return new Window(0, limit);
        }
        return new Window(random.nextInt(limit - LISTING + 1), LISTING);
    }

    /**
     * The slots a refused caller re-checks in minute {@code epochMinute}: the limit's slots cut into windows of
     * {@code size}, the minute's one in turn, so that every slot is re-checked within {@link #fullRound} minutes in
     * which the caller is refused; empty when {@code size} is 0 (re-checks off).
     */
    public static Optional<Window> rechecked(int limit, int size, long epochMinute) {
        if (size < 1) {
            return Optional.empty();
        }
        int windows = fullRound(limit, size);
        int first = (int) Math.floorMod(epochMinute, (long) windows) * size;
        return Optional.of(new Window(first, Math.min(size, limit - first)));
    }

    /** How many windows of {@code size} cover {@code limit} slots: the minutes of a full round of re-checks. */
    public static int fullRound(int limit, int size) {
        return (limit + size - 1) / size;
    }

    /** What a slot read says of its holder, before or after its job's result is read. */
    public enum Verdict {
        /** Held by a job that may be queued or running, or a submission not yet settled: keep it. */
        HELD,
        /** Held by a queued or running job: held unless the job has a result. */
        HELD_UNLESS_FINISHED,
        /** Its job ended (a result, a cancel, no marker), or the slot is not the one its job holds: free it. */
        ENDED
    }

    /**
     * Whether slot {@code number}, read as {@code slot} at {@code now}, is still held, given its job's marker: a slot
     * older than {@code lifetime} (the longest anything stays unfinished) never is; a slot whose job has no marker is
     * held only while a submission may still be writing it ({@link #SETTLE}); a marker that names another slot (or
     * another version of this one) leaves this one an orphan of a resubmission whose give-back failed.
     */
    public static Verdict judge(int number, StoredSlot slot, Optional<JobState> marker, Instant now,
                                Duration lifetime) {
        Instant admitted = slot.holder().admittedAt();
        if (admitted.isBefore(now.minus(lifetime))) {
            return Verdict.ENDED;
        }
        if (marker.isEmpty()) {
            return admitted.isAfter(now.minus(SETTLE)) ? Verdict.HELD : Verdict.ENDED;
        }
        if (!new QuotaSlot(number, slot.eTag()).equals(marker.get().quotaSlot())) {
            return Verdict.ENDED;
        }
        return marker.get().status() == JobStatus.QUEUED || marker.get().status() == JobStatus.RUNNING
                ? Verdict.HELD_UNLESS_FINISHED : Verdict.ENDED;
    }
}
