package io.gpupipe.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.observability.TraceContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobResultTraceTest {
    private static final TraceContext TRACE = new TraceContext("4bf92f3577b34da6a3ce929d0e0e4736",
            "00f067aa0ba902b7", true);

    @Test
    void withTrace_shouldWriteTraceIdAndTraceparentLast_andReadThemBack() {
        JobResult result = JobResult.failed("0b9c2f4e-6a1d-4f7e-9c3b-2d5e8f1a7b6c", Task.GENERATE, null,
                JobResult.JobError.of(ErrorCodes.EXPIRED, "late"), null, Instant.parse("2026-12-01T10:00:00Z"))
                .withTrace(TRACE);
        JsonNode json = JobJson.mapper().valueToTree(result);
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertThat(fields.subList(fields.size() - 2, fields.size())).containsExactly("traceId", "traceparent");
        assertThat(json.path("traceId").asText()).isEqualTo(TRACE.traceId());
        JobResult read = JobJson.read(json.toString(), JobResult.class);
        assertThat(read.trace()).contains(TRACE);
    }

    @Test
    void withTrace_shouldLeaveTheResultUnchanged_whenThereIsNoTrace() {
        JobResult result = JobResult.failed("0b9c2f4e-6a1d-4f7e-9c3b-2d5e8f1a7b6c", Task.GENERATE, null,
                JobResult.JobError.of(ErrorCodes.EXPIRED, "late"), null, Instant.now());
        assertThat(result.withTrace(null)).isSameAs(result);
        assertThat(result.trace()).isEmpty();
        assertThat(JobJson.write(result)).doesNotContain("traceId");
    }
}
