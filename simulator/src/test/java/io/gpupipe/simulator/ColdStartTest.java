package io.gpupipe.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.gpupipe.model.Tier;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The first job from zero as the sum of its stages, and what each lever does to them (docs/cold-start.md). */
class ColdStartTest {
    private static final long SEED = 42;
    private static final Tier SMALL = Tier.of("small");
    private static final Tier LARGE = Tier.of("large");
    private static final Platform PLATFORM = Platform.defaults();
    private static ColdStartReport report;

    @BeforeAll
    static void simulate() {
        report = ColdStartReport.run(PLATFORM, SEED);
    }

    @Test
    void firstJob_shouldBeTheSumOfItsStages_forEveryVariantThatServesIt() {
        for (ColdStartReport.Row row : report.rows().stream().filter(r -> r.trace().equals("lone")).toList()) {
            double first = row.outcome().firstJobSeconds();
            if (Double.isInfinite(first)) {
                continue; // seed 001 never scales out for one job
            }
            double stages = report.stages(row.tier(), row.variant()).stream().mapToDouble(Stage.Span::seconds).sum();
            assertThat(stages).as(row.tier() + " " + row.variant().label()).isCloseTo(first, offset(1e-6));
        }
    }

    @Test
    void eachLever_shouldShortenItsOwnStages_andLeaveTheEngineAlone() {
        for (Tier tier : List.of(SMALL, LARGE)) {
            Map<Stage, Double> today = stages(tier, Set.of());
            assertThat(stages(tier, EnumSet.of(Lever.WAKE)).get(Stage.SIGNAL)).as(tier + " wake")
                    .isEqualTo(PLATFORM.wakeSeconds()).isLessThan(today.get(Stage.SIGNAL));
            assertThat(stages(tier, EnumSet.of(Lever.STREAM)).get(Stage.IMAGE_PULL)).as(tier + " stream")
                    .isLessThan(today.get(Stage.IMAGE_PULL));
            assertThat(stages(tier, EnumSet.of(Lever.READY)).get(Stage.READINESS)).as(tier + " ready")
                    .isEqualTo(PLATFORM.readinessRetrySeconds() + PLATFORM.warmUpSeconds())
                    .isLessThan(today.get(Stage.READINESS));
            Map<Stage, Double> warm = stages(tier, EnumSet.of(Lever.WARM_POOL));
            assertThat(warm.get(Stage.CAPACITY)).as(tier + " warm pool")
                    .isEqualTo(PLATFORM.warmStartSeconds() + PLATFORM.capacitySignalSeconds())
                    .isLessThan(today.get(Stage.CAPACITY));
            assertThat(warm.get(Stage.IMAGE_PULL)).isZero();
            for (Set<Lever> levers : List.of(Set.<Lever>of(), Lever.all())) {
                assertThat(stages(tier, levers).get(Stage.ENGINE))
                        .isEqualTo(PLATFORM.tier(tier).engineStartSeconds().value());
            }
        }
    }

    @Test
    void largeTier_shouldSpendMostOfTodaysColdStartPullingItsImage() {
        // the suspicion: the 72 B weights baked into the image make the pull dominate
        Map<Stage, Double> today = stages(LARGE, Set.of());
        double total = today.values().stream().mapToDouble(Double::doubleValue).sum();
        assertThat(today.get(Stage.IMAGE_PULL)).isGreaterThan(total / 2);
    }

    @Test
    void goals_shouldHold_withEveryLever() {
        String all = new ColdStartReport.Variant(Policy.OURS, Lever.all()).label();
        assertThat(report.row("lone", SMALL, all).outcome().firstJobSeconds()).isLessThanOrEqualTo(180);
        assertThat(report.row("lone", LARGE, all).outcome().firstJobSeconds()).isLessThanOrEqualTo(360);
        for (Tier tier : List.of(SMALL, LARGE)) {
            double today = report.row("bursts", tier, "ours").outcome().costPerThousandJobs(PLATFORM.ttlSeconds());
            double levers = report.row("bursts", tier, all).outcome().costPerThousandJobs(PLATFORM.ttlSeconds());
            assertThat(levers).as(tier + " bursty $/1k").isLessThanOrEqualTo(today * 1.10);
        }
        assertThat(report.goals()).doesNotContain("NOT met");
    }

    @Test
    void wake_shouldNotBeUndoneByTheToZeroAlarm_thatIsStillInAlarmFromTheIdleHours() {
        // given: a job after two idle hours: the to-zero alarm is in ALARM and re-invokes its action every minute
        Trace late = twoJobs(2 * 3600, 2 * 3600 + 1);
        Set<Lever> wake = EnumSet.of(Lever.WAKE);

        // when: the wake holds the scalable target's minimum (as deployed), and when it would not
        RunResult held = new Simulator(PLATFORM, SEED).run(late, Policy.OURS, wake);
        RunResult unheld = new Simulator(PLATFORM.with("wakeHoldSeconds=0"), SEED).run(late, Policy.OURS, wake);

        // then: the held wake's task lives until the job is served; without the hold the alarm set 0 tasks at once
        ColdStartTimeline timeline = held.tier(SMALL).orElseThrow().coldStart();
        assertThat(timeline.desiredAt() - timeline.arrival()).isEqualTo(PLATFORM.wakeSeconds());
        assertThat(tasksBetween(held, timeline.desiredAt(), timeline.firstResultAt())).doesNotContain(0);
        assertThat(tasksBetween(unheld, timeline.desiredAt(), timeline.firstResultAt())).contains(0);
    }

    @Test
    void warmPool_shouldRefillAfterScaleToZero_andStartColdUntilTheRefillIsDone() {
        // given: two lone jobs far apart and two close together
        Set<Lever> warm = EnumSet.of(Lever.WARM_POOL, Lever.WAKE);
        Trace apart = twoJobs(0, 3 * 3600);
        Trace close = twoJobs(0, 15 * 60);

        // when
        RunResult far = new Simulator(PLATFORM, SEED).run(apart, Policy.OURS, warm);
        RunResult near = new Simulator(PLATFORM, SEED).run(close, Policy.OURS, warm);

        // then: the refilled pool serves the second job warm; the second job of the close pair comes after the
        // scale-in (5 idle minutes), before the pool is refilled (a cold launch and pull), and waits for a cold launch
        double refill = new ColdStart(PLATFORM, SMALL, warm).refillSeconds();
        assertThat(latencies(far).get(1)).isCloseTo(latencies(far).get(0), offset(1e-6));
        assertThat(latencies(near).get(1)).isGreaterThan(latencies(near).get(0) + 60);
        // the warm pool charges its refills (instance time beyond the two short starts) and its stopped volume
        assertThat(far.instanceHours() * 3600).isGreaterThan(2 * refill);
        assertThat(far.cost()).isGreaterThan(far.instanceHours() * PLATFORM.tier(SMALL).pricePerHour().value());
    }

    @Test
    void levers_shouldBeRefused_whereTheyCannotBeDeployed() {
        Simulator simulator = new Simulator(PLATFORM, SEED);
        assertThatThrownBy(() -> simulator.run(Traces.lone(), Policy.SEED_000, EnumSet.of(Lever.WAKE)))
                .hasMessageContaining("seed000 has none");
        assertThatThrownBy(() -> simulator.run(Traces.lone(), Policy.OURS_SPOT, EnumSet.of(Lever.WARM_POOL)))
                .hasMessageContaining("Spot");
        assertThatThrownBy(() -> Lever.of("faster")).hasMessageContaining("wake, stream, ready, warmpool");
    }

    private static Map<Stage, Double> stages(Tier tier, Set<Lever> levers) {
        return report.stages(tier, new ColdStartReport.Variant(Policy.OURS, levers)).stream()
                .collect(Collectors.toMap(Stage.Span::stage, Stage.Span::seconds));
    }

    private static Trace twoJobs(double first, double second) {
        return new Trace("two", "two jobs", Traces.MONDAY, second + 2 * 3600, List.of(
                new Job(0, Traces.OFF_TICK + first, SMALL, 128), new Job(1, Traces.OFF_TICK + second, SMALL, 128)));
    }

    /** The active tasks sampled each minute from {@code from} to {@code to}. */
    private static List<Integer> tasksBetween(RunResult result, double from, double to) {
        return result.tier(SMALL).orElseThrow().recording().samples().stream()
                .filter(s -> s.at() > from && s.at() < to).map(Recording.Sample::tasks).toList();
    }

    private static List<Double> latencies(RunResult result) {
        TierOutcome outcome = result.tier(SMALL).orElseThrow();
        return List.of(outcome.resultAt()[0] - outcome.jobs().get(0).arrival(),
                outcome.resultAt()[1] - outcome.jobs().get(1).arrival());
    }
}
