package io.gpupipe.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.batch.BatchStatus;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The status enums on the wire: the names and terminal flags they had before they shared {@link WireStatus}. */
class WireStatusTest {

    @Test
    void jobStatus_shouldWriteAndReadItsWireNames() {
        // given: the wire format clients and stored documents rely on
        Map<JobStatus, String> expected = Map.of(JobStatus.QUEUED, "\"queued\"", JobStatus.RUNNING, "\"running\"",
                JobStatus.SUCCEEDED, "\"succeeded\"", JobStatus.FAILED, "\"failed\"", JobStatus.CANCELLED,
                "\"cancelled\"");
        // when, then
        expected.forEach((status, json) -> {
            assertThat(JobJson.write(status)).isEqualTo(json);
            assertThat(JobJson.read(json, JobStatus.class)).isEqualTo(status);
        });
        assertThat(terminal(JobStatus.values())).isEqualTo("succeeded, failed, cancelled");
    }

    @Test
    void batchStatus_shouldWriteAndReadItsWireNames() {
        for (BatchStatus status : BatchStatus.values()) {
            String json = "\"" + status.name().toLowerCase(Locale.ROOT) + "\"";
            assertThat(JobJson.write(status)).isEqualTo(json);
            assertThat(JobJson.read(json, BatchStatus.class)).isEqualTo(status);
        }
        assertThat(terminal(BatchStatus.values())).isEqualTo("failed, completed, expired, cancelled");
    }

    @Test
    void fromWire_shouldNameTheSet_whenTheNameIsUnknown() {
        assertThatThrownBy(() -> WireStatus.fromWire(JobStatus.values(), "done", "status"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown status: done");
        assertThatThrownBy(() -> JobJson.read("\"done\"", BatchStatus.class)).hasMessageContaining(
                "unknown batch status: done");
    }

    private static String terminal(WireStatus[] values) {
        return Arrays.stream(values).filter(WireStatus::isTerminal).map(WireStatus::wireName)
                .collect(Collectors.joining(", "));
    }
}
