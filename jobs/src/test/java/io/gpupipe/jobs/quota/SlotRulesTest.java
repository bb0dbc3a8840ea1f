package io.gpupipe.jobs.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.gpupipe.jobs.port.JobSlots.StoredSlot;
import io.gpupipe.jobs.port.SlotHolder;
import io.gpupipe.model.QuotaSlot;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;

/** The job-slot rules without I/O: which slots are tried, listed, re-checked, and when a slot read is still held. */
class SlotRulesTest {
    private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    private static final Duration LIFETIME = Duration.ofDays(15);

    @Test
    void probeAndListing_shouldStayWithinTheLimit_andListEverySlotWhenTheyFitOneListing() {
        qt().forAll(integers().between(1, 50_000), longs().all()).checkAssert((limit, seed) -> {
            SplittableRandom random = new SplittableRandom(seed);
            assertThat(SlotRules.probe(limit, random)).isBetween(0, limit - 1);
            SlotRules.Window listed = SlotRules.listed(limit, random);
            assertThat(listed.first() + listed.count()).isLessThanOrEqualTo(limit);
            assertThat(listed.count()).isEqualTo(Math.min(limit, SlotRules.LISTING));
        });
    }

    @Test
    void free_shouldBeEveryUntakenSlotOfTheWindow_inSomeOrder() {
        qt().forAll(integers().between(1, 300), longs().all()).checkAssert((limit, seed) -> {
            SplittableRandom random = new SplittableRandom(seed);
            Set<Integer> taken = IntStream.range(0, limit).filter(slot -> random.nextBoolean()).boxed()
                    .collect(Collectors.toSet());
            List<Integer> free = SlotRules.listed(limit, random).free(taken, random);
            assertThat(free).doesNotHaveDuplicates().hasSize(limit - taken.size())
                    .allSatisfy(slot -> assertThat(slot).isBetween(0, limit - 1).isNotIn(taken));
        });
    }

    @Test
    void rechecked_shouldVisitEverySlotOnce_inOneFullRoundOfMinutes_fromAnyMinute() {
        qt().forAll(integers().between(1, 5_000), integers().between(1, 64), longs().between(0, 100_000_000L))
                .checkAssert((limit, size, start) -> {
                    Set<Integer> seen = new HashSet<>();
                    int round = SlotRules.fullRound(limit, size);
                    for (long minute = start; minute < start + round; minute++) {
                        SlotRules.Window window = SlotRules.rechecked(limit, size, minute).orElseThrow();
                        assertThat(window.count()).isLessThanOrEqualTo(size);
                        IntStream.range(window.first(), window.first() + window.count()).forEach(slot ->
                                assertThat(seen.add(slot)).as("slot %d twice", slot).isTrue());
                    }
                    assertThat(seen).hasSize(limit);
                });
    }

    @Test
    void rechecked_shouldBeOff_whenTheWindowIsZero() {
        assertThat(SlotRules.rechecked(100, 0, 7)).isEmpty();
    }

    @Test
    void judge_shouldHoldASlotOfAQueuedOrRunningJob_untilItsResult() {
        JobState marker = marker(3, "\"e\"");

        assertThat(SlotRules.judge(3, slot(NOW, "\"e\""), Optional.of(marker), NOW, LIFETIME))
                .isEqualTo(SlotRules.Verdict.HELD_UNLESS_FINISHED);
        assertThat(SlotRules.judge(3, slot(NOW, "\"e\""), Optional.of(marker.running("task", NOW)), NOW, LIFETIME))
                .isEqualTo(SlotRules.Verdict.HELD_UNLESS_FINISHED);
    }

    @Test
    void judge_shouldFreeTheSlot_whenItsJobWasCancelledOrHoldsAnotherSlotOrVersion() {
        JobState marker = marker(3, "\"e\"");

        assertThat(SlotRules.judge(3, slot(NOW, "\"e\""), Optional.of(marker.cancelled(NOW)), NOW, LIFETIME))
                .isEqualTo(SlotRules.Verdict.ENDED);
        assertThat(SlotRules.judge(4, slot(NOW, "\"e\""), Optional.of(marker), NOW, LIFETIME))
                .isEqualTo(SlotRules.Verdict.ENDED);
        assertThat(SlotRules.judge(3, slot(NOW, "\"other\""), Optional.of(marker), NOW, LIFETIME))
                .isEqualTo(SlotRules.Verdict.ENDED);
    }

    @Test
    void judge_shouldHoldASlotWithoutMarker_onlyWhileItsSubmissionMayStillBeWritingIt() {
        Instant admitted = NOW.minus(SlotRules.SETTLE);

        assertThat(SlotRules.judge(0, slot(admitted.plusSeconds(1), "\"e\""), Optional.empty(), NOW, LIFETIME))
                .isEqualTo(SlotRules.Verdict.HELD);
        assertThat(SlotRules.judge(0, slot(admitted.minusSeconds(1), "\"e\""), Optional.empty(), NOW, LIFETIME))
                .isEqualTo(SlotRules.Verdict.ENDED);
    }

    @Test
    void judge_shouldFreeASlotOlderThanAnythingStaysUnfinished_whateverItsMarkerSays() {
        assertThat(SlotRules.judge(3, slot(NOW.minus(LIFETIME).minusSeconds(1), "\"e\""),
                Optional.of(marker(3, "\"e\"")), NOW, LIFETIME)).isEqualTo(SlotRules.Verdict.ENDED);
    }

    private static StoredSlot slot(Instant admitted, String eTag) {
        return new StoredSlot(new SlotHolder("job-1", admitted), eTag);
    }

    private static JobState marker(int number, String eTag) {
        InferenceJob job = new InferenceJob("job-1", Task.GENERATE, "Hi", 8, 0.0, 1.0, null, null, null, null, null,
                NOW);
        return JobState.queued(job, Tier.of("small"), NOW).holding(new QuotaSlot(number, eTag));
    }

    private static QuickTheory qt() {
        return QuickTheory.qt().withFixedSeed(20261204L).withExamples(200);
    }
}
