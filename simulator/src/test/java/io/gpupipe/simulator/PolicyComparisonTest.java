package io.gpupipe.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Ours against the seeds on every bundled trace (one run of each, shared by the tests). */
class PolicyComparisonTest {
    private static final Map<Policy, List<RunResult>> RESULTS = new EnumMap<>(Policy.class);

    @BeforeAll
    static void simulate() {
        Simulator simulator = new Simulator(Platform.defaults(), 42);
        for (Policy policy : List.of(Policy.SEED_000, Policy.SEED_001, Policy.OURS, Policy.OURS_WARM)) {
            RESULTS.put(policy, Traces.bundled(42).stream().map(t -> simulator.run(t, policy)).toList());
        }
    }

    @Test
    void ours_shouldNeverCostMorePerServedJobThanSeed001_onAnyBundledTrace() {
        for (int i = 0; i < RESULTS.get(Policy.OURS).size(); i++) {
            RunResult ours = RESULTS.get(Policy.OURS).get(i);
            RunResult seed001 = RESULTS.get(Policy.SEED_001).get(i);
            assertThat(ours.costPerThousandJobs()).as(ours.trace()).isLessThanOrEqualTo(seed001.costPerThousandJobs());
            assertThat(ours.lateJobs()).as(ours.trace()).isLessThanOrEqualTo(seed001.lateJobs());
        }
    }

    @Test
    void ours_shouldServeTheFirstJobNoLaterThanEitherSeed_whenAtMostFiveJobsArrive() {
        for (int i = 0; i < 2; i++) {
            RunResult ours = RESULTS.get(Policy.OURS).get(i);
            assertThat(ours.firstJobSeconds()).as(ours.trace())
                    .isLessThanOrEqualTo(RESULTS.get(Policy.SEED_000).get(i).firstJobSeconds())
                    .isLessThan(RESULTS.get(Policy.SEED_001).get(i).firstJobSeconds());
            // a warm window inside office hours skips the cold start's detection and provisioning
            assertThat(RESULTS.get(Policy.OURS_WARM).get(i).firstJobSeconds()).isLessThan(ours.firstJobSeconds());
        }
    }

    @Test
    void ours_shouldCostLessPerJobThanBothSeeds_onTheBurstyTrace() {
        RunResult ours = byName(Policy.OURS, "bursts");
        assertThat(ours.costPerThousandJobs())
                .isLessThan(byName(Policy.SEED_000, "bursts").costPerThousandJobs())
                .isLessThan(byName(Policy.SEED_001, "bursts").costPerThousandJobs());
        assertThat(ours.p95Seconds()).isLessThan(byName(Policy.SEED_000, "bursts").p95Seconds());
    }

    private static RunResult byName(Policy policy, String trace) {
        return RESULTS.get(policy).stream().filter(r -> r.trace().equals(trace)).findFirst().orElseThrow();
    }
}
