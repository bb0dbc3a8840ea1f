package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.jobs.quota.JobQuota;
import io.gpupipe.jobs.quota.OwnerJobQuota;
import io.gpupipe.jobs.quota.OwnerQuotas;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.jobs.quota.UnfinishedLedger;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The router's limit on unfinished jobs when releases were lost: a full ledger's oldest entries are re-checked
 * against the real store (S3Proxy) before a 429, and a job that has a result, was cancelled or has no marker frees
 * its slot; a job still queued does not.
 */
class JobQuotaTest {
    private static final Tier SMALL = Tier.of("small");
    private static LocalAws aws;
    private static S3Client s3;

    private final Owner owner = new CallerIdentity.Jwt("https://idp.example.com", UUID.randomUUID().toString())
            .owner();

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

    @Test
    void admit_shouldFreeTheSlotsOfJobsThatEnded_whenTheirReleasesWereLost() {
        // given: a full ledger (3) of jobs that ended without a release: a result, a cancel, a marker taken back
        S3JobStore store = new S3JobStore(s3, aws.bucket());
        InferenceJob finished = queued(store);
        putResult(JobResult.failed(finished, JobResult.JobError.of(ErrorCodes.MODEL_ERROR, "boom"),
                new JobResult.Provenance(SMALL, "m", "1", "t", 1, 1L, 1L), Instant.now()));
        InferenceJob cancelled = queued(store);
        JobState marker = store.readMarker(cancelled.requestId()).orElseThrow().state();
        putMarker(marker.cancelled(Instant.now()));
        String takenBack = job().requestId();
        JobQuota quota = quota(store, 3);
        fill(finished.requestId(), cancelled.requestId(), takenBack);

        // when
        boolean admitted = quota.admit(job()).isEmpty();

        // then: admitted, and the three ended jobs no longer counted
        assertThat(admitted).isTrue();
        assertThat(ledger().admitted()).hasSize(1).doesNotContainKeys(finished.requestId(), cancelled.requestId(),
                takenBack);
    }

    @Test
    void admit_shouldRefuseWithTheLimit_whenTheOldestJobsAreStillQueued() {
        // given
        S3JobStore store = new S3JobStore(s3, aws.bucket());
        fill(queued(store).requestId(), queued(store).requestId());
        JobQuota quota = quota(store, 2);

        // when, then
        assertThat(quota.admit(job())).hasValueSatisfying(refused -> {
            assertThat(refused.limit()).isEqualTo(2);
            assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(30));
        });
        assertThat(ledger().size()).isEqualTo(2);
    }

    private JobQuota quota(S3JobStore store, int limit) {
        return new OwnerJobQuota(new OwnerQuotas(new S3QuotaLedgers(s3, aws.bucket()), Clock.systemUTC(),
                Duration.ofSeconds(10)), new OwnerQuotas.Limit(limit, Duration.ofDays(15), 8, Duration.ofSeconds(30)),
                store);
    }

    private InferenceJob job() {
        return new InferenceJob(UUID.randomUUID().toString(), Task.GENERATE, "Hi", 8, 0.0, 1.0, null, null, null,
                null, null, Instant.now()).submittedBy(owner);
    }

    private InferenceJob queued(S3JobStore store) {
        InferenceJob job = job();
        store.createMarker(JobState.queued(job, SMALL, Instant.now())).orElseThrow();
        return job;
    }

    private void fill(String... ids) {
        Map<String, Long> admitted = new TreeMap<>();
        long at = Instant.now().getEpochSecond() - ids.length;
        for (String id : ids) {
            admitted.put(id, at++);
        }
        new S3QuotaLedgers(s3, aws.bucket()).create(owner, QuotaKind.JOBS, new UnfinishedLedger(admitted))
                .orElseThrow();
    }

    private UnfinishedLedger ledger() {
        return new S3QuotaLedgers(s3, aws.bucket()).read(owner, QuotaKind.JOBS).orElseThrow().ledger();
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
