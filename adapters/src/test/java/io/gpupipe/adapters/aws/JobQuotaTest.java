package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.jobs.port.SlotHolder;
import io.gpupipe.jobs.quota.JobQuota;
import io.gpupipe.jobs.quota.JobSlotQuota;
import io.gpupipe.jobs.quota.JobSlotReleases;
import io.gpupipe.jobs.quota.OwnerQuotas;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.QuotaSlot;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The router's limit on unfinished jobs as slots on the real store (S3Proxy): a refused caller's slots are re-checked,
 * and a slot whose job has a result, was cancelled, has no marker long after its admission, or whose marker names
 * another slot is freed; a slot of a job still queued is not. Releases free only the version of the slot their job
 * wrote: repeated and stale events free nothing.
 */
class JobQuotaTest {
    private static final Tier SMALL = Tier.of("small");
    private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    private static LocalAws aws;
    private static S3Client s3;

    private final Owner owner = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com",
            UUID.randomUUID().toString()));
    private S3JobStore store;
    private S3JobSlots slots;

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
    }

    @AfterAll
    static void stop() {
        s3.close();
        aws.close();
    }

    @BeforeEach
    void setUp() {
        store = new S3JobStore(s3, aws.bucket());
        slots = new S3JobSlots(s3, aws.bucket());
    }

    @Test
    void admit_shouldFreeTheSlotsOfJobsThatEnded_whenTheirReleasesWereLost() {
        // given: every slot (4) held by a job that ended without a release: a result, a cancel, a marker taken back
        // (none, 20 minutes after its admission), and an orphan of a resubmission (its marker names another slot)
        InferenceJob finished = held(0, true);
        putResult(JobResult.failed(finished, JobResult.JobError.of(ErrorCodes.MODEL_ERROR, "boom"),
                new JobResult.Provenance(SMALL, "m", "1", "t", 1, 1L, 1L), NOW));
        InferenceJob cancelled = held(1, true);
        putMarker(store.readMarker(cancelled.requestId()).orElseThrow().state().cancelled(NOW));
        held(2, false);
        InferenceJob resubmitted = held(3, true);
        putMarker(store.readMarker(resubmitted.requestId()).orElseThrow().state().holding(new QuotaSlot(7, "\"x\"")));

        // when
        JobQuota.Admission admission = quota(4, NOW.plus(Duration.ofMinutes(20))).admit(job());

        // then: admitted; one slot held (the new job's), the four ended jobs' freed
        assertThat(admission).isInstanceOf(JobQuota.Admission.Admitted.class);
        assertThat(slotKeys()).hasSize(1);
    }

    @Test
    void admit_shouldRefuseWithTheLimit_whenTheJobsHoldingEverySlotAreStillQueued() {
        // given: two queued jobs, and a submission that has claimed its slot but not yet written its marker
        held(0, true);
        held(1, true);
        held(2, false);

        // when
        JobQuota.Admission admission = quota(3, NOW.plus(Duration.ofMinutes(5))).admit(job());

        // then
        assertThat(admission).isEqualTo(new JobQuota.Admission.Refused(3, Duration.ofSeconds(30)));
        assertThat(slotKeys()).hasSize(3);
    }

    @Test
    void release_shouldFreeOnlyTheVersionItsJobWrote_whenEventsRepeatOrComeLate() {
        // given: job A held slot 0 and ended; its release ran, and job B has claimed slot 0 since
        JobSlotReleases releases = new JobSlotReleases(slots, store);
        InferenceJob a = held(0, true);
        releases.release(owner, a.requestId());
        assertThat(slotKeys()).isEmpty();
        InferenceJob b = held(0, true);

        // when: A's event is delivered again (a duplicate, now stale)
        releases.release(owner, a.requestId());

        // then: B still holds slot 0; B's own release frees it, and a repeat of it changes nothing
        assertThat(slots.read(owner, 0)).hasValueSatisfying(slot -> assertThat(slot.holder().jobId())
                .isEqualTo(b.requestId()));
        releases.release(owner, b.requestId());
        releases.release(owner, b.requestId());
        assertThat(slotKeys()).isEmpty();
    }

    private JobQuota quota(int limit, Instant now) {
        return new JobSlotQuota(slots, store, new OwnerQuotas.Limit(limit, Duration.ofDays(15), 8,
                Duration.ofSeconds(30)), Clock.fixed(now, ZoneOffset.UTC), Duration.ofSeconds(10));
    }

    private InferenceJob job() {
        String id = UUID.randomUUID().toString();
        return new InferenceJob(id, Task.GENERATE, "Hi", 8, 0.0, 1.0, null, null, null, null, null, NOW)
                .withKey(JobKey.submitted(owner, id));
    }

    /** A job admitted at NOW holding slot {@code number}, and its queued marker naming it when {@code marker}. */
    private InferenceJob held(int number, boolean marker) {
        InferenceJob job = job();
        String eTag = slots.claim(owner, number, new SlotHolder(job.requestId(), NOW)).orElseThrow();
        if (marker) {
            store.createMarker(JobState.queued(job, SMALL, NOW).holding(new QuotaSlot(number, eTag))).orElseThrow();
        }
        return job;
    }

    private List<String> slotKeys() {
        return s3.listObjectsV2(b -> b.bucket(aws.bucket()).prefix(QuotaKind.JOBS.slotPrefix(owner))).contents()
                .stream().map(o -> o.key()).toList();
    }

    private void putResult(JobResult result) {
        s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(result.requestId())),
                RequestBody.fromString(JobJson.write(result)));
    }

    private void putMarker(JobState marker) {
        s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.markerKey(marker.requestId())),
                RequestBody.fromString(JobJson.write(marker)));
    }
}
