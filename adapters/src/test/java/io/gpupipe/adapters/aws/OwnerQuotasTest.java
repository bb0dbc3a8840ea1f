package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.jobs.quota.OwnerQuotas;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.jobs.quota.QuotaLedgers;
import io.gpupipe.jobs.quota.UnfinishedLedger;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The per-caller ledgers over S3Proxy's real conditional writes: exact under 32 concurrent writers of one caller,
 * idempotent under repeated events, and never locked by a release that was lost.
 */
class OwnerQuotasTest {
    private static final int SUBMITTERS = 32;
    private static final OwnerQuotas.Limit LIMIT = new OwnerQuotas.Limit(10, Duration.ofDays(15), 4,
            Duration.ofSeconds(30));
    private static LocalAws aws;
    private static S3Client s3;
    private static ExecutorService pool;
    private static QuotaLedgers ledgers;

    private final Owner owner = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com",
            UUID.randomUUID().toString()));
    private final OwnerQuotas quotas = new OwnerQuotas(ledgers, Clock.systemUTC(), Duration.ofSeconds(60));

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
        ledgers = new S3QuotaLedgers(s3, aws.bucket());
        pool = Executors.newFixedThreadPool(SUBMITTERS);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
        s3.close();
        aws.close();
    }

    @Test
    void admit_shouldAdmitExactlyTheLimit_when32SubmittersOfOneCallerRaceForIt() throws Exception {
        // when
        List<OwnerQuotas.Admission> admissions = all(IntStream.range(0, SUBMITTERS).mapToObj(i -> (Callable<
                OwnerQuotas.Admission>) () -> quotas.admit(owner, QuotaKind.JOBS, "job-" + i, LIMIT, id -> true))
                .toList());

        // then
        assertThat(admissions.stream().filter(a -> a instanceof OwnerQuotas.Admission.Admitted)).hasSize(10);
        assertThat(admissions.stream().filter(a -> a instanceof OwnerQuotas.Admission.Refused))
                .hasSize(SUBMITTERS - 10).allSatisfy(a -> assertThat(((OwnerQuotas.Admission.Refused) a).limit())
                        .isEqualTo(10));
        assertThat(ledger().size()).isEqualTo(10);
    }

    @Test
    void release_shouldCountEachEndOnce_whenEventsRepeatAndRaceWithAdmissions() throws Exception {
        // given: the limit reached
        List<String> first = IntStream.range(0, 10).mapToObj(i -> "first-" + i).toList();
        first.forEach(id -> quotas.admit(owner, QuotaKind.JOBS, id, LIMIT, x -> true));

        // when: every release three times (at-least-once events), while others submit
        List<Callable<Object>> work = new ArrayList<>();
        for (String id : first) {
            for (int copy = 0; copy < 3; copy++) {
                work.add(() -> {
                    quotas.release(owner, QuotaKind.JOBS, id);
                    return null;
                });
            }
        }
        all(work);
        List<OwnerQuotas.Admission> after = all(IntStream.range(0, SUBMITTERS).mapToObj(i -> (Callable<
                OwnerQuotas.Admission>) () -> quotas.admit(owner, QuotaKind.JOBS, "second-" + i, LIMIT, id -> true))
                .toList());

        // then: the count went to zero, never below, and the limit holds again
        assertThat(after.stream().filter(a -> a instanceof OwnerQuotas.Admission.Admitted)).hasSize(10);
        assertThat(ledger().admitted()).hasSize(10).allSatisfy((id, at) -> assertThat(id).startsWith("second-"));
    }

    @Test
    void admit_shouldRecover_whenReleasesWereLost() {
        // given: ten jobs whose releases never came (a notifier that failed, a router that died mid-take-back)
        IntStream.range(0, 10).forEach(i -> quotas.admit(owner, QuotaKind.JOBS, "lost-" + i, LIMIT, id -> true));

        // when: the store says the four oldest re-checked have ended
        OwnerQuotas.Admission next = quotas.admit(owner, QuotaKind.JOBS, "next", LIMIT, id -> false);

        // then
        assertThat(next).isInstanceOf(OwnerQuotas.Admission.Admitted.class);
        assertThat(ledger().size()).isEqualTo(10 - LIMIT.recheck() + 1);
    }

    @Test
    void admit_shouldForgetEntriesOlderThanTheLifetime_evenWithoutARecheck() {
        // given: a full ledger admitted sixteen days ago
        OwnerQuotas past = new OwnerQuotas(ledgers, Clock.fixed(Instant.now().minus(Duration.ofDays(16)),
                ZoneOffset.UTC), Duration.ofSeconds(10));
        IntStream.range(0, 10).forEach(i -> past.admit(owner, QuotaKind.JOBS, "old-" + i, LIMIT, id -> true));

        // when
        OwnerQuotas.Admission now = quotas.admit(owner, QuotaKind.JOBS, "new", LIMIT, id -> true);

        // then
        assertThat(now).isInstanceOf(OwnerQuotas.Admission.Admitted.class);
        assertThat(ledger().admitted()).containsOnlyKeys("new");
    }

    @Test
    void admit_shouldKeepCallersApart() {
        Owner other = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com",
                UUID.randomUUID().toString()));
        IntStream.range(0, 10).forEach(i -> quotas.admit(owner, QuotaKind.JOBS, "mine-" + i, LIMIT, id -> true));

        assertThat(quotas.admit(other, QuotaKind.JOBS, "theirs", LIMIT, id -> true))
                .isInstanceOf(OwnerQuotas.Admission.Admitted.class);
        assertThat(quotas.admit(owner, QuotaKind.BATCHES, "batch", LIMIT, id -> true))
                .isInstanceOf(OwnerQuotas.Admission.Admitted.class);
    }

    private UnfinishedLedger ledger() {
        return ledgers.read(owner, QuotaKind.JOBS).orElseThrow().ledger();
    }

    /** Runs every call at once (released together) and returns their answers in order. */
    private static <T> List<T> all(List<Callable<T>> calls) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<T>> futures = calls.stream().map(call -> pool.submit(() -> {
            start.await();
            return call.call();
        })).toList();
        start.countDown();
        List<T> answers = new ArrayList<>();
        for (Future<T> future : futures) {
            answers.add(future.get());
        }
        return answers;
    }
}
