package io.gpupipe.localstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkerWatchTest {

    @ParameterizedTest
    @CsvSource({"STARTING, starting", "WARMING_UP, starting", "READY, ready", "DRAINING, draining",
        "STOPPED, stopped", "FAILED, failed"})
    void state_shouldBeTheReadinessPhase_whenTheProcessIsAlive(String phase, String shown) {
        assertThat(WorkerWatch.state(true, Optional.of(phase))).isEqualTo(shown);
    }

    @Test
    void state_shouldBeStarting_untilTheWorkerAnswers() {
        assertThat(WorkerWatch.state(true, Optional.empty())).isEqualTo("starting");
    }

    @Test
    void state_shouldBeRestarting_whenTheProcessDied() {
        // the supervisor replaces a worker that exits while the stack runs
        assertThat(WorkerWatch.state(false, Optional.of("READY"))).isEqualTo("restarting");
    }
}
