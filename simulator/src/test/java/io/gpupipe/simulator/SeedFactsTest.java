package io.gpupipe.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Tier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The seeds' documented behaviour reproduces in the simulator, and ours goes to zero the way the issue asks. */
class SeedFactsTest {
    private static final Tier SMALL = Tier.of("small");
    private static final Platform PLATFORM = Platform.defaults();
    private static final Simulator SIMULATOR = new Simulator(PLATFORM, 42);

    @Test
    void seed001_shouldNeverScaleOut_whenOnlyFiveJobsArrive() {
        // when
        RunResult five = SIMULATOR.run(Traces.five(), Policy.SEED_001);

        // then: depth/5 = 1.0 is not > 1.0, so no task ever starts and nothing is served
        assertThat(five.recording().samples()).allMatch(s -> s.tasks() == 0);
        assertThat(five.lateJobs()).isEqualTo(5);
        assertThat(five.cost()).isZero();
        assertThat(five.firstJobSeconds()).isInfinite();
    }

    @Test
    void seed001_shouldScaleOut_whenSixJobsArrive() {
        // given: one more job than the threshold
        Trace six = trace("six", 6);

        // when
        RunResult result = SIMULATOR.run(six, Policy.SEED_001);

        // then
        assertThat(result.lateJobs()).isZero();
        assertThat(result.recording().samples()).anyMatch(s -> s.tasks() > 0);
    }

    @Test
    void seed000_shouldReachZeroFiveIdleMinutesAfterTheLastResult() {
        // when
        RunResult lone = SIMULATOR.run(Traces.lone(), Policy.SEED_000);

        // then: 5 one-minute datapoints of 0 visible, seen one metric lag later
        double lastResult = Traces.lone().jobs().get(0).arrival() + lone.firstJobSeconds();
        double zeroAt = firstZeroAfter(lone, lastResult);
        assertThat(zeroAt - lastResult).isBetween(5 * 60.0, 7 * 60.0);
    }

    @Test
    void ours_shouldGoFromTenTasksToZeroInOneStep_whenTheQueueHasBeenIdleFiveMinutes() {
        // given: 2,000 jobs at once drive the small tier to its 10 tasks
        Trace burst = trace("burst", 2000);

        // when
        RunResult result = SIMULATOR.run(burst, Policy.OURS);

        // then: the step before zero still had every task: no 1-per-5-minutes staircase down
        List<Recording.Sample> samples = result.recording().samples();
        assertThat(samples).anyMatch(s -> s.tasks() == PLATFORM.maxTasks(SMALL));
        int firstZero = indexOfFirstZeroAfterPeak(samples);
        assertThat(samples.get(firstZero - 1).tasks()).isEqualTo(PLATFORM.maxTasks(SMALL));
        double lastResult = burst.jobs().get(0).arrival() + result.p99Seconds();
        assertThat(samples.get(firstZero).at() - lastResult).isBetween(5 * 60.0, 8 * 60.0);
        assertThat(result.lateJobs()).isZero();
    }

    @Test
    void ours_shouldKeepItsTaskThroughSteadyTraffic_whenTheQueueIsOftenEmptyAtTheTick() {
        // when: 300 short jobs an hour, the queue is empty at most sampling instants
        RunResult day = SIMULATOR.run(Traces.businessDay(42), Policy.OURS);

        // then: no cold start in business hours (a cold start costs ~7 minutes)
        assertThat(day.p95Seconds()).isLessThan(60);
    }

    private static Trace trace(String name, int jobs) {
        List<Job> list = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            list.add(new Job(i, Traces.OFF_TICK + i * 0.01, SMALL, 128));
        }
        return new Trace(name, name, Traces.MONDAY, 3 * 3600, list);
    }

    private static double firstZeroAfter(RunResult result, double t) {
        return result.recording().samples().stream().filter(s -> s.at() > t && s.tasks() == 0)
                .findFirst().orElseThrow().at();
    }

    private static int indexOfFirstZeroAfterPeak(List<Recording.Sample> samples) {
        boolean seenTasks = false;
        for (int i = 0; i < samples.size(); i++) {
            seenTasks |= samples.get(i).tasks() > 0;
            if (seenTasks && samples.get(i).tasks() == 0) {
                return i;
            }
        }
        throw new AssertionError("never reached zero");
    }
}
