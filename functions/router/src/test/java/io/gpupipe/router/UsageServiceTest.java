package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.UsageStore;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.usage.CostEstimate;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageRecord;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * What a usage question reads and writes (days read in parallel; an in-memory store counting the calls the S3 store
 * would make): a month costs one listing per unsettled day and one summary read per settled one, once its summaries
 * exist.
 */
class UsageServiceTest {
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://issuer", "alice"));
    /** Late on the 31st: every day of the month but today is settled. */
    private static final Instant NOW = Instant.parse("2026-12-31T20:00:00Z");
    private final CountingStore store = new CountingStore();
    private final UsageService service = new UsageService(store, CostEstimate.of(TierCatalogue.bundled()),
            Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void usage_shouldSummarizeEachSettledDayOnce_thenReadOneSummaryPerDay() {
        // given: a job on every day of December
        for (int day = 1; day <= 31; day++) {
            store.add(LocalDate.of(2026, 12, day));
        }

        // when: the month is asked for twice
        UsageService.Outcome first = service.usage(ALICE, "2026-12-01", null, "day");
        Map<String, Integer> firstCalls = store.calls();
        store.calls.clear();
        UsageService.Outcome second = service.usage(ALICE, "2026-12-01", null, "day");

        // then: the first made the 30 settled days' summaries (a miss, a listing and a PUT each) and listed today;
        // the second read 30 summaries and listed today: 31 S3 calls
        assertThat(firstCalls).isEqualTo(Map.of("summary", 30, "records", 31, "storeSummary", 30));
        assertThat(store.calls()).isEqualTo(Map.of("summary", 30, "records", 1));
        assertThat(((UsageService.Outcome.Answered) second).report().total().jobs().total()).isEqualTo(31);
        assertThat(((UsageService.Outcome.Answered) first).report()).isEqualTo(
                ((UsageService.Outcome.Answered) second).report());
    }

    @Test
    void usage_shouldListYesterday_untilSixHoursAfterItEnded_andNeverReadDaysAfterToday() {
        UsageService early = new UsageService(store, CostEstimate.of(TierCatalogue.bundled()),
                Clock.fixed(Instant.parse("2026-12-31T05:59:00Z"), ZoneOffset.UTC));

        early.usage(ALICE, "2026-12-30", "2027-01-05", null);

        assertThat(store.calls()).isEqualTo(Map.of("records", 2));
    }

    @Test
    void usage_shouldReadNothing_whenAParameterIsBad() {
        UsageService.Outcome outcome = service.usage(ALICE, "2026-12-01", "2026-11-01", null);

        assertThat(outcome).isInstanceOf(UsageService.Outcome.Invalid.class);
        assertThat(store.calls()).isEmpty();
    }

    /** Records and summaries in memory; counts each call by the S3 request it stands for. */
    private static final class CountingStore implements UsageStore {
        private final Map<LocalDate, List<UsageRecord>> records = new ConcurrentHashMap<>();
        private final Map<LocalDate, DaySummary> summaries = new ConcurrentHashMap<>();
        private final Map<String, Integer> calls = new ConcurrentHashMap<>();

        void add(LocalDate day) {
            records.computeIfAbsent(day, d -> new ArrayList<>()).add(new UsageRecord(UUID.randomUUID().toString(),
                    day, JobStatus.SUCCEEDED, "small", "m", 1, 2, 1_000, false));
        }

        Map<String, Integer> calls() {
            return Map.copyOf(calls);
        }

        private void count(String call) {
            calls.merge(call, 1, Integer::sum);
        }

        @Override
        public void record(Owner owner, UsageRecord record) {
            count("record");
        }

        @Override
        public List<UsageRecord> records(Owner owner, LocalDate day) {
            count("records");
            return records.getOrDefault(day, List.of());
        }

        @Override
        public Optional<DaySummary> summary(Owner owner, LocalDate day) {
            count("summary");
            return Optional.ofNullable(summaries.get(day));
        }

        @Override
        public void storeSummary(Owner owner, DaySummary summary) {
            count("storeSummary");
            summaries.putIfAbsent(summary.day(), summary);
        }

        @Override
        public void forgetSummary(Owner owner, LocalDate day) {
            count("forgetSummary");
            summaries.remove(day);
        }
    }
}
