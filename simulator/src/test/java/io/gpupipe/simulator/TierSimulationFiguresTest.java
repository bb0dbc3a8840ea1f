package io.gpupipe.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * Pins figures of whole runs so that restructuring the event model cannot move them unnoticed. The expected values
 * were computed by the TierSimulation before it was split into EventClock, InstanceFleet and EcsService (commit
 * c63cb5f, seed 42, default platform); a deliberate change to the model updates them together with docs/simulator.md.
 */
class TierSimulationFiguresTest {
    private static final Trace BURSTS = Traces.bundled(42).stream()
            .filter(t -> t.name().equals("bursts")).findFirst().orElseThrow();

    @Test
    void oursOnTheBurstyTrace_shouldKeepItsLatencyAndCost() {
        RunResult run = new Simulator(Platform.defaults(), 42).run(BURSTS, Policy.OURS);

        assertThat(run.jobs()).isEqualTo(520);
        assertThat(run.p95Seconds()).isCloseTo(828.1131459211738, offset(1e-9));
        assertThat(run.cost()).isCloseTo(5.682936083877996, offset(1e-9));
    }

    @Test
    void everyLeverWithTheWarmPool_shouldKeepItsFirstJobAndCost() {
        RunResult run = new Simulator(Platform.defaults(), 42)
                .run(BURSTS, Policy.OURS_WARM, EnumSet.allOf(Lever.class));

        assertThat(run.firstJobSeconds()).isCloseTo(152.65747235546587, offset(1e-9));
        assertThat(run.instanceHours()).isCloseTo(13.901165930172604, offset(1e-9));
        assertThat(run.cost()).isCloseTo(14.126972110022281, offset(1e-9));
    }

    @Test
    void spotInterruptions_shouldKeepTheirCountAndCost() {
        Platform interruptible = Platform.defaults().with("spotInterruptionsPerHour=3");
        RunResult run = new Simulator(interruptible, 42).run(BURSTS, Policy.OURS_SPOT);

        assertThat(run.spotInterruptions()).isEqualTo(2);
        assertThat(run.gpuRuns()).isEqualTo(520);
        assertThat(run.cost()).isCloseTo(5.240461465141612, offset(1e-9));
    }
}
