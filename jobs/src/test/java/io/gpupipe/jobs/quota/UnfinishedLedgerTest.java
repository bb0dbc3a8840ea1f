package io.gpupipe.jobs.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnfinishedLedgerTest {
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final Duration LIFETIME = Duration.ofDays(15);

    @Test
    void admit_shouldAdmitUpToTheLimit_thenAnswerFullWithTheOldest() {
        UnfinishedLedger ledger = UnfinishedLedger.EMPTY;
        for (int i = 0; i < 3; i++) {
            ledger = admitted(ledger.admit("id-" + i, T0.plusSeconds(i), 3, LIFETIME, 2));
        }

        UnfinishedLedger.Admission fourth = ledger.admit("id-3", T0.plusSeconds(9), 3, LIFETIME, 2);

        assertThat(ledger.size()).isEqualTo(3);
        assertThat(fourth).isEqualTo(new UnfinishedLedger.Admission.Full(3, List.of("id-0", "id-1")));
    }

    @Test
    void admitAndRelease_shouldBeIdempotent_underRepeatedEvents() {
        UnfinishedLedger one = admitted(UnfinishedLedger.EMPTY.admit("a", T0, 1, LIFETIME, 1));

        assertThat(one.admit("a", T0.plusSeconds(5), 1, LIFETIME, 1))
                .isInstanceOf(UnfinishedLedger.Admission.AlreadyAdmitted.class);
        UnfinishedLedger released = one.without(List.of("a"));
        assertThat(released.size()).isZero();
        assertThat(released.without(List.of("a"))).isSameAs(released);
        assertThat(released.size()).isNotNegative();
    }

    @Test
    void admit_shouldDropEntriesOlderThanTheLifetime_soALostReleaseNeverLocksACallerOut() {
        UnfinishedLedger full = admitted(UnfinishedLedger.EMPTY.admit("lost", T0, 1, LIFETIME, 1));

        UnfinishedLedger.Admission later = full.admit("next", T0.plus(LIFETIME).plusSeconds(1), 1, LIFETIME, 1);

        assertThat(full.admit("next", T0.plus(LIFETIME).minusSeconds(1), 1, LIFETIME, 1))
                .isInstanceOf(UnfinishedLedger.Admission.Full.class);
        assertThat(admitted(later).admitted()).containsOnlyKeys("next");
    }

    @Test
    void ledger_shouldRoundTripAsJson_andKeyedByOwnerHash() {
        UnfinishedLedger ledger = admitted(UnfinishedLedger.EMPTY.admit("a", T0, 5, LIFETIME, 1));

        assertThat(JobJson.read(JobJson.write(ledger), UnfinishedLedger.class)).isEqualTo(ledger);
        assertThat(QuotaKind.JOBS.ledgerKey(OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS)))
                .matches("quotas/[0-9a-f]{64}/jobs\\.json");
    }

    @Test
    void admit_shouldCapTheSumOfTheWeights_whenEntriesWeighTheirBatchesLines() {
        // given a cap of 10 lines and a batch of 4 lines counted
        UnfinishedLedger ledger = admitted(UnfinishedLedger.EMPTY.admit("batch-a", 4, T0, 10, LIFETIME, 2));

        // when, then: 6 more fit, 7 do not; one batch alone over the cap never fits
        assertThat(ledger.total()).isEqualTo(4);
        UnfinishedLedger full = admitted(ledger.admit("batch-b", 6, T0.plusSeconds(1), 10, LIFETIME, 2));
        assertThat(full.total()).isEqualTo(10);
        assertThat(ledger.admit("batch-c", 7, T0.plusSeconds(1), 10, LIFETIME, 2))
                .isEqualTo(new UnfinishedLedger.Admission.Full(10, List.of("batch-a")));
        assertThat(UnfinishedLedger.EMPTY.admit("huge", 11, T0, 10, LIFETIME, 2))
                .isEqualTo(new UnfinishedLedger.Admission.Full(10, List.of()));
        // a batch that ended gives its lines back
        assertThat(full.without(List.of("batch-b")).total()).isEqualTo(4);
        assertThat(JobJson.read(JobJson.write(full), UnfinishedLedger.class)).isEqualTo(full);
    }

    @Test
    void ledger_shouldReadAnOldLedgerWithoutWeights_asEntriesOfOneEach() {
        UnfinishedLedger old = JobJson.read("{\"admitted\":{\"a\":1,\"b\":2}}", UnfinishedLedger.class);

        assertThat(old.total()).isEqualTo(2);
        assertThat(JobJson.write(old)).doesNotContain("weights");
    }

    private static UnfinishedLedger admitted(UnfinishedLedger.Admission admission) {
        assertThat(admission).isInstanceOf(UnfinishedLedger.Admission.Admitted.class);
        return ((UnfinishedLedger.Admission.Admitted) admission).next();
    }
}
