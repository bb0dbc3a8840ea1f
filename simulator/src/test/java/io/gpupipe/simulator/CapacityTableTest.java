package io.gpupipe.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CapacityTableTest {
    @Test
    void firstLimit_shouldBeTheResourceOfItsKindReachedAtTheLowestJobRate() {
        for (CapacityTable.Kind kind : CapacityTable.Kind.values()) {
            // when
            CapacityTable.Resource first = CapacityTable.firstLimit(kind);

            // then
            assertThat(CapacityTable.resources()).filteredOn(r -> r.kind() == kind).allSatisfy(r ->
                    assertThat(r.reachedAt()).isGreaterThanOrEqualTo(first.reachedAt()));
            assertThat(CapacityTable.markdown()).contains("First " + kind.label() + " hit: " + first.name());
        }
    }

    @Test
    void resources_shouldGrowLinearlyWithTheJobRate_andBeMarkedOnceOverTheirLimit() {
        // then
        for (CapacityTable.Resource r : CapacityTable.resources()) {
            assertThat(r.at(1_000)).isCloseTo(10 * r.at(100), org.assertj.core.data.Percentage.withPercentage(1e-9));
        }
        // the notifier's 0.175 s per job at 100 jobs/s is 17.5 concurrent, over its 10 reserved
        assertThat(CapacityTable.markdown()).contains("| Result notifier concurrency | 0.175 | **17.5** |");
        // the account's API throttle (10,000 req/s for a POST and a GET per job) is passed at 10,000 jobs/s only
        assertThat(CapacityTable.markdown()).contains("| API Gateway, account and Region (POST + one GET) | 2 | 200 "
                + "| 2,000 | **20,000** |");
    }

    @Test
    void functionDurations_shouldBeTheSumOfTheirCallsOnThePath() {
        // then: POST = slot PUT + marker PUT + SendMessage + own; notifier = 4 GETs-or-publish + 3 PUTs-or-DELETE
        assertThat(CapacityTable.ROUTER_POST_SECONDS).isCloseTo(0.075, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(CapacityTable.NOTIFIER_SECONDS).isCloseTo(0.175, org.assertj.core.data.Offset.offset(1e-9));
    }
}
