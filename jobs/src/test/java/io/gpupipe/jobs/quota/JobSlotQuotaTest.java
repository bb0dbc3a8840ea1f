package io.gpupipe.jobs.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.jobs.port.JobSlots;
import io.gpupipe.jobs.port.SlotHolder;
import io.gpupipe.model.Task;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.testsupport.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What one admission costs against a caller's slots, with the slots in memory: the calls it makes as the caller's
 * slots fill. A listing moves up to 1,000 keys (about 250 KB), a probe one small object, so how often an admission
 * lists is what its bytes depend on.
 */
class JobSlotQuotaTest {
    private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    private static final Owner CALLER = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));

    private final MutableClock clock = new MutableClock(NOW);

    @Test
    void admit_shouldRarelyList_whenHalfTheCallersSlotsAreTaken() {
        // given: a caller with limit 1,000 holding every other slot (half full)
        CountingSlots slots = new CountingSlots();
        for (int number = 0; number < 1_000; number += 2) {
            slots.claim(CALLER, number, new SlotHolder("held-" + number, NOW));
        }
        JobSlotQuota quota = quota(slots, 1_000);
        slots.resetCounts();

        // when: 100 jobs are admitted
        for (int i = 0; i < 100; i++) {
            assertThat(quota.admit(job())).isInstanceOf(JobQuota.Admission.Admitted.class);
        }

        // then: about two probes each (1 / (1 - 0.5)), and a listing only when 8 probes in a row met taken slots
        // (0.5^8 = 0.4 %: P(more than 3 of 100) < 0.1 %); listing after every missed probe would list about 40 times
        assertThat(slots.listings.get()).as("listings").isLessThanOrEqualTo(3);
        assertThat(slots.claims.get()).as("slot PUTs").isBetween(100, 400);
    }

    @Test
    void admit_shouldOnlyList_forRetryAfterAfterARefusal_whenOneListingShowsEverySlot() {
        // given: a caller with limit 100 holding all its slots, refused once (8 probes and one listing)
        CountingSlots slots = full(100);
        JobSlotQuota quota = quota(slots, 100);
        assertThat(quota.admit(job())).isInstanceOf(JobQuota.Admission.Refused.class);
        slots.resetCounts();

        // when: it asks 10 more times within its Retry-After (30 s)
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofSeconds(2));
            assertThat(quota.admit(job())).isInstanceOf(JobQuota.Admission.Refused.class);
        }

        // then: one call each, the listing; no slot tried
        assertThat(slots.listings.get()).isEqualTo(10);
        assertThat(slots.claims.get()).isZero();

        // and a slot freed meanwhile is found by the next request, whichever it is (the listing is exact)
        slots.free(CALLER, 42, "\"42\"");
        assertThat(quota.admit(job())).isInstanceOf(JobQuota.Admission.Admitted.class);
    }

    @Test
    void admit_shouldTryOneSlotAndListNothing_forRetryAfterAfterARefusal_whenTheSlotsExceedOneListing() {
        // given: a caller with limit 2,000 holding all its slots, refused once
        CountingSlots slots = full(2_000);
        JobSlotQuota quota = quota(slots, 2_000);
        assertThat(quota.admit(job())).isInstanceOf(JobQuota.Admission.Refused.class);
        slots.resetCounts();

        // when: it asks 10 more times within its Retry-After
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofSeconds(2));
            assertThat(quota.admit(job())).isInstanceOf(JobQuota.Admission.Refused.class);
        }

        // then: one call each, the slot tried; no listing
        assertThat(slots.claims.get()).isEqualTo(10);
        assertThat(slots.listings.get()).isZero();

        // and once its Retry-After has passed, it is listed again
        clock.advance(Duration.ofSeconds(11));
        quota.admit(job());
        assertThat(slots.listings.get()).isEqualTo(1);
    }

    private static CountingSlots full(int limit) {
        CountingSlots slots = new CountingSlots();
        for (int number = 0; number < limit; number++) {
            slots.claim(CALLER, number, new SlotHolder("held-" + number, NOW));
        }
        return slots;
    }

    private JobSlotQuota quota(JobSlots slots, int limit) {
        // recheck 0: no re-check of ended jobs, so the store is never read
        return new JobSlotQuota(slots, null, new OwnerQuotas.Limit(limit, Duration.ofDays(15), 0,
                Duration.ofSeconds(30)), clock, Duration.ofSeconds(5));
    }

    private static InferenceJob job() {
        String id = UUID.randomUUID().toString();
        return new InferenceJob(id, Task.GENERATE, "Hi", 8, 0.0, 1.0, null, null, null, null, null, NOW)
                .withKey(JobKey.submitted(CALLER, id));
    }

    /** Slots in memory, create-only as S3's, counting the claims (PUTs) and listings made. */
    private static final class CountingSlots implements JobSlots {
        private final Map<Integer, String> held = new ConcurrentHashMap<>();
        private final AtomicInteger claims = new AtomicInteger();
        private final AtomicInteger listings = new AtomicInteger();

        void resetCounts() {
            claims.set(0);
            listings.set(0);
        }

        @Override
        public Optional<String> claim(Owner owner, int number, SlotHolder holder) {
            claims.incrementAndGet();
            return held.putIfAbsent(number, holder.jobId()) == null ? Optional.of("\"" + number + "\"")
                    : Optional.empty();
        }

        @Override
        public SortedSet<Integer> taken(Owner owner, int first, int count) {
            listings.incrementAndGet();
            SortedSet<Integer> taken = new TreeSet<>();
            held.keySet().stream().filter(n -> n >= first && n < first + count).forEach(taken::add);
            return taken;
        }

        @Override
        public Optional<StoredSlot> read(Owner owner, int number) {
            return Optional.ofNullable(held.get(number)).map(id -> new StoredSlot(new SlotHolder(id, NOW),
                    "\"" + number + "\""));
        }

        @Override
        public boolean free(Owner owner, int number, String eTag) {
            return held.remove(number) != null;
        }
    }
}
