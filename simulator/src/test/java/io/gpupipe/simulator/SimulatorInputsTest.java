package io.gpupipe.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulatorInputsTest {
    private static final Tier SMALL = Tier.of("small");

    @TempDir
    Path dir;

    @Test
    void csv_shouldReadTimestampsAndSizes_andRouteLongJobsToLarge() throws IOException {
        // given
        Path file = dir.resolve("mine.csv");
        Files.writeString(file, "timestamp,promptChars,maxTokens\n# comment\n"
                + "2026-12-01T09:00:10Z,100,64\n2026-12-01T09:00:00Z\n2026-12-01T09:01:00Z,3000,256\n");

        // when
        Trace trace = Traces.csv(file);

        // then
        assertThat(trace.name()).isEqualTo("mine");
        assertThat(trace.jobs()).extracting(Job::arrival).containsExactly(0.0, 10.0, 60.0);
        assertThat(trace.jobs()).extracting(Job::tier).containsExactly(SMALL, SMALL, Tier.of("large"));
        assertThat(trace.jobs(SMALL)).extracting(Job::maxTokens).containsExactly(128, 64);
        assertThat(trace.horizonSeconds()).isEqualTo(60 + 7200);
    }

    @Test
    void csv_shouldNameTheLine_whenARowIsBad() throws IOException {
        Path file = dir.resolve("bad.csv");
        Files.writeString(file, "10\n20,abc\n");
        assertThatThrownBy(() -> Traces.csv(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2");
    }

    @Test
    void platformWith_shouldChangeOneParameter_andRejectUnknownNames() {
        Platform changed = Platform.defaults().with("small.pricePerHour=1.861");
        assertThat(changed.tier(SMALL).pricePerHour().value()).isEqualTo(1.861);
        assertThat(changed.tier(SMALL).pricePerHour().source()).startsWith("overridden");
        assertThat(changed.tier(Tier.of("large")).pricePerHour())
                .isEqualTo(Platform.defaults().tier(Tier.of("large")).pricePerHour());
        assertThatThrownBy(() -> Platform.defaults().with("medium.pricePerHour=1")).hasMessageContaining("no tier");
        assertThatThrownBy(() -> Platform.defaults().with("small.speed=1")).hasMessageContaining("unknown tier figure");
        assertThat(Platform.defaults().with("ourWindow=4").ourWindow()).isEqualTo(4);
        assertThatThrownBy(() -> Platform.defaults().with("nope=1")).hasMessageContaining("unknown parameter 'nope'");
        assertThatThrownBy(() -> Platform.defaults().with("ourWindow=x")).hasMessageContaining("wants a number");
    }

    @Test
    void tierFigures_shouldComeFromTheCatalogue_andNameTheFile_whenATierHasNone() throws IOException {
        // given: the catalogue's speech tier has no platform figures (no priced instance in the seeds)
        Tier speech = Tier.of("speech");
        Trace spoken = new Trace("spoken", "speech", Traces.MONDAY, 3600, List.of(new Job(0, 17, speech, 64)));

        // when, then
        assertThat(Platform.defaults().tiers().keySet()).containsExactly(SMALL, Tier.of("large"));
        assertThat(Platform.defaults().maxTasks(SMALL))
                .isEqualTo(TierCatalogue.bundled().get(SMALL).maxTasks());
        assertThatThrownBy(() -> new Simulator(Platform.defaults(), 1).run(spoken, Policy.OURS))
                .hasMessageContaining("tier speech has no platform figures").hasMessageContaining("tier-figures.json");
        JsonNode unknown = new ObjectMapper().readTree("{\"tiers\": {\"medium\": {}}}");
        assertThatThrownBy(() -> TierFigures.read(unknown, TierCatalogue.bundled()))
                .hasMessageContaining("medium is not in the tier catalogue");
        JsonNode unsourced = new ObjectMapper().readTree("{\"tiers\": {\"small\": {\"instanceType\": \"x\", "
                + "\"pricePerHour\": {\"value\": 1}}}}");
        assertThatThrownBy(() -> TierFigures.read(unsourced, TierCatalogue.bundled()))
                .hasMessageContaining("pricePerHour needs {\"value\": <number>, \"source\"");
    }

    @Test
    void batchSpeedup_shouldMatchTheWorkerBenchmark() {
        Platform p = Platform.defaults();
        assertThat(p.batchSpeedup(1)).isEqualTo(1.0);
        assertThat(p.batchSpeedup(16)).isCloseTo(14.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.batchSpeedup(1000)).isEqualTo(p.maxBatchSpeedup());
    }

    @Test
    void run_shouldBeDeterministic_forASeed() {
        RunResult a = new Simulator(Platform.defaults(), 7).run(Traces.poissonBursts(7), Policy.OURS_SPOT);
        RunResult b = new Simulator(Platform.defaults(), 7).run(Traces.poissonBursts(7), Policy.OURS_SPOT);
        assertThat(a.cost()).isEqualTo(b.cost());
        assertThat(a.p99Seconds()).isEqualTo(b.p99Seconds());
        assertThat(a.jobs()).isEqualTo(b.jobs());
    }

    @Test
    void charts_shouldWriteOnePngPerTrace() throws IOException {
        // given
        Simulator simulator = new Simulator(Platform.defaults(), 42);
        var results = java.util.List.of(simulator.run(Traces.five(), Policy.SEED_000),
                simulator.run(Traces.five(), Policy.OURS));

        // when
        Path png = Charts.write(dir, "five", results, 400, 300);

        // then: a PNG signature
        byte[] bytes = Files.readAllBytes(png);
        assertThat(png.getFileName()).hasToString("five.png");
        assertThat(bytes).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    }

    @Test
    void spot_shouldCostLessThanOnDemand_whenBurstsNeedSeveralTasks() {
        Platform p = Platform.defaults().with("backlogPerTask=5");
        Simulator simulator = new Simulator(p, 42);
        RunResult onDemand = simulator.run(Traces.poissonBursts(42), Policy.OURS);
        RunResult spot = simulator.run(Traces.poissonBursts(42), Policy.OURS_SPOT);
        assertThat(spot.cost()).isLessThan(onDemand.cost());
        assertThat(spot.lateJobs()).isZero();
    }
}
