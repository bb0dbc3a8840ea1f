package io.gpupipe.model.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobResultAndStateTest {
    private static final String ID = "550e8400-e29b-41d4-a716-446655440000";
    private static final Instant T0 = Instant.parse("2026-05-03T04:35:47.906Z");
    private final InferenceJob job = new InferenceJob(ID, Task.GENERATE, "hi", 128, 0.7, 1.0, null, null, null,
            "https://example.com/cb", null, T0);
    private final JobResult.Provenance run = new JobResult.Provenance(Tier.of("small"), "mistral-7b", "v1",
            "arn:aws:ecs:us-west-2:123456789012:task/c/t", 1, 12L, 4956L);

    @Test
    void succeeded_shouldSerialiseWithSeedFieldNames() throws Exception {
        JobResult result = JobResult.succeeded(job, JobResult.Output.text("Amazon ECS is...",
                JobResult.Usage.of(17, 102), "stop"), run, T0);

        JsonNode json = JobJson.mapper().readTree(JobJson.write(result));

        assertThat(json.get("requestId").asText()).isEqualTo(ID);
        assertThat(json.get("status").asText()).isEqualTo("succeeded");
        assertThat(json.at("/result/text").asText()).isEqualTo("Amazon ECS is...");
        assertThat(json.at("/result/usage/totalTokens").asInt()).isEqualTo(119);
        assertThat(json.at("/result/finishReason").asText()).isEqualTo("stop");
        assertThat(json.get("processingTimeMs").asLong()).isEqualTo(4956);
        assertThat(json.get("taskArn").asText()).startsWith("arn:aws:ecs:");
        assertThat(json.get("timestamp").asText()).isEqualTo("2026-05-03T04:35:47.906Z");
        assertThat(json.get("tier").asText()).isEqualTo("small");
        assertThat(json.has("error")).isFalse();
        assertThat(JobJson.read(JobJson.write(result), JobResult.class)).isEqualTo(result);
    }

    @Test
    void failed_shouldCarryCodeMessageAndFieldErrors() throws Exception {
        JobResult result = JobResult.failed(ID, null, null, new JobResult.JobError(ErrorCodes.INVALID_REQUEST,
                "invalid job", List.of(new FieldError("maxTokens", "out_of_range", "too big"))), null, T0);

        JsonNode json = JobJson.mapper().readTree(JobJson.write(result));

        assertThat(json.get("status").asText()).isEqualTo("failed");
        assertThat(json.at("/error/code").asText()).isEqualTo("invalid_request");
        assertThat(json.at("/error/fieldErrors/0/field").asText()).isEqualTo("maxTokens");
        assertThat(json.has("result")).isFalse();
    }

    @Test
    void result_shouldRejectNonTerminalStatus() {
        assertThatThrownBy(() -> new JobResult(ID, JobStatus.RUNNING, null, null, null, null, null, null, null,
                null, null, null, null, T0, null, null, null, null, null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void marker_shouldBeCancellableOnlyWhileQueued() {
        JobState queued = JobState.queued(job, Tier.of("small"), T0);

        assertThat(queued.isCancellable()).isTrue();
        assertThat(queued.running("arn", T0).isCancellable()).isFalse();
        assertThat(queued.cancelled(T0).status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(JobJson.read(JobJson.write(queued), JobState.class)).isEqualTo(queued);
    }

    @Test
    void view_shouldPreferResult_overMarker() {
        JobState running = JobState.queued(job, Tier.of("small"), T0).running("arn", T0);
        JobResult done = JobResult.succeeded(job, JobResult.Output.text("t", JobResult.Usage.of(1, 1), "stop"),
                run, T0);

        assertThat(JobView.of(ID, Optional.of(running), Optional.of(done)).orElseThrow().status())
                .isEqualTo(JobStatus.SUCCEEDED);
        assertThat(JobView.of(ID, Optional.of(running), Optional.empty()).orElseThrow().status())
                .isEqualTo(JobStatus.RUNNING);
        assertThat(JobView.of(ID, Optional.empty(), Optional.empty())).isEmpty();
    }

    @Test
    void layout_shouldNameKeysAndParseResultKeys() {
        assertThat(JobLayout.markerKey(ID)).isEqualTo("jobs/" + ID + ".json");
        assertThat(JobLayout.resultKey(ID)).isEqualTo("results/" + ID + ".json");
        assertThat(JobLayout.audioKey(ID)).isEqualTo("results/" + ID + ".wav");
        assertThat(JobLayout.requestIdOfResultKey("results/" + ID + ".json")).contains(ID);
        assertThat(JobLayout.requestIdOfResultKey("results/" + ID + ".wav")).isEmpty();
        assertThat(JobLayout.requestIdOfResultKey("jobs/" + ID + ".json")).isEmpty();
        assertThat(JobLayout.requestIdOfResultKey("results/../x.json")).isEmpty();
    }
}
