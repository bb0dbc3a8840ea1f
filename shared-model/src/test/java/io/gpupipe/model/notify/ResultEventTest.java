package io.gpupipe.model.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultEventTest {
    private static final String ID = "550e8400-e29b-41d4-a716-446655440000";
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final InferenceJob JOB = new InferenceJob(ID, Task.GENERATE, "hi", 16, 0.7, 1.0, null, null,
            null, "https://hooks.example.com/x", null, NOW);
    private static final JobResult.Provenance RUN = new JobResult.Provenance(Tier.of("small"), "mistral", "v1",
            "arn:task", 1, 10L, 20L);

    @Test
    void of_shouldCarryIdStatusTierAndLocation_whenSucceeded() {
        // given
        JobResult result = JobResult.succeeded(JOB, JobResult.Output.text("secret output", null, "stop"), RUN, NOW);

        // when
        ResultEvent event = ResultEvent.of(result, "gpupipe-results", "results/" + ID + ".json");
        @SuppressWarnings("unchecked")
        Map<String, Object> json = JobJson.read(event.toJson(), Map.class);

        // then
        assertThat(event.isSuccess()).isTrue();
        assertThat(json).containsEntry("requestId", ID).containsEntry("status", "succeeded")
                .containsEntry("tier", "small").containsEntry("task", "generate")
                .containsEntry("resultLocation", "s3://gpupipe-results/results/" + ID + ".json")
                .containsEntry("completedAt", "2026-11-29T12:00:00Z")
                .doesNotContainKeys("errorCode", "result", "callbackUrl", "success");
        assertThat(event.toJson()).doesNotContain("secret output");
    }

    @Test
    void of_shouldCarryErrorCode_whenFailed() {
        // given
        JobResult result = JobResult.failed(JOB, JobResult.JobError.of(ErrorCodes.MODEL_TIMEOUT, "slow"), RUN, NOW);

        // when
        ResultEvent event = ResultEvent.of(result, "b", "results/" + ID + ".json");

        // then
        assertThat(event.isSuccess()).isFalse();
        assertThat(event.errorCode()).isEqualTo("model_timeout");
    }
}
