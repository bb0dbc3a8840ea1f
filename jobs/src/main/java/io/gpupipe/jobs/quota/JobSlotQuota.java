package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.port.JobSlots.StoredSlot;
import io.gpupipe.jobs.port.JobSlots;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.port.SlotHolder;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.QuotaSlot;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.model.retry.RetryPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jboss.logging.Logger;

/**
 * The per-caller limit on unfinished jobs as slots ({@link SlotRules}): a job is admitted by claiming one free slot
 * object create-only, so at most L jobs of a caller are ever counted and no object is shared by its concurrent
 * submissions. It tries random slots ({@link SlotRules#probes}: one call each, about 1 / (1 - fill) of them); when
 * all it tried were taken, one listing shows the free ones, or that there are none: refused. For its Retry-After
 * after such a refusal, this instance only lists that caller's slots when one listing shows them all (limit ≤ 1,000:
 * exact), and otherwise tries one random slot and lists nothing: either way a caller hammering at its limit costs one
 * call per request. A refused caller has a window of its slots re-checked at most once a minute per router instance
 * ({@link SlotRules#rechecked}): a slot whose job ended without its release is freed.
 */
public final class JobSlotQuota implements JobQuota {
    private static final Logger LOG = Logger.getLogger(JobSlotQuota.class);
    /** Contenders for the last free slots pause a random while below a cap that doubles from 10 to 100 ms. */
    private static final RetryPolicy CONTENTION = RetryPolicy.exponential(RetryPolicy.UNLIMITED,
            Duration.ofMillis(10), Duration.ofMillis(100)).withJitter(RetryPolicy.Jitter.FULL);
    /**
     * Free slots of one listing tried before listing again: concurrent submissions race for the same free slots, and
     * past a few lost races the listing is stale.
     */
    private static final int CLAIMS_PER_LISTING = 3;
    /** Callers whose last re-check minute is remembered; beyond it, minutes gone by are forgotten. */
    private static final int REMEMBERED_CALLERS = 10_000;

    private final JobSlots slots;
    private final JobSlotReleases releases;
    private final JobStore store;
    private final OwnerQuotas.Limit limit;
    private final Clock clock;
    private final RetryPolicy contention;
    private final Map<Owner, Long> recheckedInMinute = new ConcurrentHashMap<>();
    private final Map<Owner, Instant> refusedAt = new ConcurrentHashMap<>();

    /**
     * At most {@code limit} unfinished jobs per caller, each holding one of its {@code slots}, re-checked against
     * {@code store}; {@code contention}: how long one admission may keep losing slots to concurrent ones.
     */
    public JobSlotQuota(JobSlots slots, JobStore store, OwnerQuotas.Limit limit, Clock clock, Duration contention) {
        this(slots, new JobSlotReleases(slots, store), store, limit, clock, contention);
    }

    JobSlotQuota(JobSlots slots, JobSlotReleases releases, JobStore store, OwnerQuotas.Limit limit, Clock clock,
                 Duration contention) {
        this.slots = slots;
        this.releases = releases;
        this.store = store;
        this.limit = limit;
        this.clock = clock;
        this.contention = CONTENTION.within(contention);
    }

    @Override
    public Admission admit(InferenceJob job) {
        Owner owner = job.owner() == null ? Owner.QUEUE : new Owner(job.owner());
        if (!owner.isCaller()) {
            return new Admission.Admitted(Optional.empty());
        }
        SlotHolder holder = new SlotHolder(job.requestId(), clock.instant());
        RandomGenerator random = ThreadLocalRandom.current();
        boolean refusedRecently = refusedRecently(owner);
        Optional<QuotaSlot> claimed = Optional.empty();
        int probes = SlotRules.probes(limit.max(), refusedRecently);
        for (int probe = 0; probe < probes && claimed.isEmpty(); probe++) {
            claimed = claim(owner, SlotRules.probe(limit.max(), random), holder);
        }
        Retry retry = contention.start();
        while (claimed.isEmpty()) {
            // a caller refused here within its Retry-After whose slots one listing cannot show: its one probe decides
            List<Integer> free = refusedRecently && !SlotRules.listsAfterRefusal(limit.max()) ? List.<Integer>of()
                    : listedFree(owner, random);
            if (free.isEmpty()) {
                free = recheck(owner);
            }
            if (free.isEmpty()) {
                if (!refusedRecently) {
                    refusedAt.put(owner, clock.instant());
                }
                return new Admission.Refused(limit.max(), limit.retryAfter());
            }
            for (int i = 0; i < Math.min(free.size(), CLAIMS_PER_LISTING) && claimed.isEmpty(); i++) {
                claimed = claim(owner, free.get(i), holder);
            }
            if (claimed.isEmpty()) {
                refusedRecently = false;
                pause(owner, retry);
            }
        }
        return new Admission.Admitted(claimed);
    }

    private List<Integer> listedFree(Owner owner, RandomGenerator random) {
        SlotRules.Window listed = SlotRules.listed(limit.max(), random);
        return listed.free(slots.taken(owner, listed.first(), listed.count()), random);
    }

    @Override
    public void giveBack(InferenceJob job, QuotaSlot slot) {
        if (job.owner() != null) {
            releases.freeOrLog(new Owner(job.owner()), job.requestId(), slot);
        }
    }

    @Override
    public void released(Owner owner, String id) {
        releases.releaseOrLog(owner, id);
    }

    private Optional<QuotaSlot> claim(Owner owner, int number, SlotHolder holder) {
        return slots.claim(owner, number, holder).map(eTag -> new QuotaSlot(number, eTag));
    }

    /**
     * The slots of this minute's window that are free or were held by jobs that ended without their release (now
     * freed); empty when this instance re-checked {@code owner} already this minute.
     */
    private List<Integer> recheck(Owner owner) {
        long minute = clock.instant().getEpochSecond() / 60;
        Optional<SlotRules.Window> window = SlotRules.rechecked(limit.max(), limit.recheck(), minute);
        if (window.isEmpty() || !firstRecheckInMinute(owner, minute)) {
            return List.of();
        }
        List<Integer> free = new ArrayList<>();
        for (int number = window.get().first(); number < window.get().first() + window.get().count(); number++) {
            Optional<StoredSlot> slot = slots.read(owner, number);
            if (slot.isEmpty()) {
                free.add(number);
            } else if (!stillHeld(number, slot.get()) && slots.free(owner, number, slot.get().eTag())) {
                LOG.infof("slot %d of %s was held by job %s, which ended without its release: freed", number, owner,
                        slot.get().holder().jobId());
                free.add(number);
            }
        }
        return free;
    }

    private boolean stillHeld(int number, StoredSlot slot) {
        String id = slot.holder().jobId();
        SlotRules.Verdict verdict = SlotRules.judge(number, slot, store.readMarker(id)
                .map(JobStore.StoredMarker::state), clock.instant(), limit.lifetime());
        return switch (verdict) {
            case HELD -> true;
            case HELD_UNLESS_FINISHED -> store.readResult(id).isEmpty();
            case ENDED -> false;
        };
    }

    /** True when this instance listed {@code owner}'s slots and refused it within its Retry-After. */
    private boolean refusedRecently(Owner owner) {
        Instant now = clock.instant();
        if (refusedAt.size() > REMEMBERED_CALLERS) {
            refusedAt.values().removeIf(refused -> !now.isBefore(refused.plus(limit.retryAfter())));
        }
        Instant refused = refusedAt.get(owner);
        return refused != null && now.isBefore(refused.plus(limit.retryAfter()));
    }

    private boolean firstRecheckInMinute(Owner owner, long minute) {
        if (recheckedInMinute.size() > REMEMBERED_CALLERS) {
            recheckedInMinute.values().removeIf(last -> last < minute);
        }
        Long before = recheckedInMinute.put(owner, minute);
        return before == null || before != minute;
    }

    /** Every free slot seen was claimed meanwhile: wait a random, growing while, or give up at the deadline. */
    private static void pause(Owner owner, Retry retry) {
        if (retry.another()) {
            return;
        }
        if (retry.interrupted()) {
            throw new StoreUnavailableException("interrupted while claiming a slot of " + owner, null);
        }
        throw new StoreUnavailableException("the free slots of " + owner + " kept being claimed by concurrent"
                + " submissions (" + retry.attempt() + " attempts)", null);
    }
}
