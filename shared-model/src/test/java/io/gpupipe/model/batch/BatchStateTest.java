package io.gpupipe.model.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BatchStateTest {
    private static final Owner ANONYMOUS_OWNER = OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS);
    private static final String ID = BatchIds.newBatchId(UUID.fromString("5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"));
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final BatchRequest REQUEST = new BatchRequest(BatchLayout.inputKey(ANONYMOUS_OWNER, UUID.fromString(
            "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d")), BatchEndpoint.CHAT_COMPLETIONS, "24h",
            Map.of("description", "nightly eval job"), null);
    private static final BatchPlan PLAN = new BatchPlan(3, List.of(new ChunkPlan(0, 1, 0, 99, 3, List.of())));

    @Test
    void lifecycle_shouldGoFromValidatingToCompleted_withOpenAisTimestamps() throws Exception {
        // when
        BatchState created = BatchState.created(ID, REQUEST, ANONYMOUS_OWNER, T0);
        BatchState running = created.planned(PLAN, T0.plusSeconds(1));
        BatchState done = running.finished(new LineCounts(2, 0, 0, 0, 1), "batches/" + ID + "/output.jsonl",
                "batches/" + ID + "/errors.jsonl", T0.plusSeconds(5), T0.plusSeconds(6));

        // then
        assertThat(created.status()).isEqualTo(BatchStatus.VALIDATING);
        assertThat(created.expiresAt()).isEqualTo(T0.plusSeconds(86_400));
        assertThat(running.status()).isEqualTo(BatchStatus.IN_PROGRESS);
        assertThat(done.status()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(done.counts()).isEqualTo(new RequestCounts(3, 2, 1));
        JsonNode json = JobJson.mapper().readTree(JobJson.write(BatchObject.of(done)));
        assertThat(json.path("object").asText()).isEqualTo("batch");
        assertThat(json.path("endpoint").asText()).isEqualTo("/v1/chat/completions");
        assertThat(json.path("status").asText()).isEqualTo("completed");
        assertThat(json.path("created_at").asLong()).isEqualTo(T0.getEpochSecond());
        assertThat(json.path("in_progress_at").asLong()).isEqualTo(T0.getEpochSecond() + 1);
        assertThat(json.path("finalizing_at").asLong()).isEqualTo(T0.getEpochSecond() + 5);
        assertThat(json.path("completed_at").asLong()).isEqualTo(T0.getEpochSecond() + 6);
        assertThat(json.at("/request_counts/total").asInt()).isEqualTo(3);
        assertThat(json.path("output_file_id").asText()).endsWith("/output.jsonl");
        assertThat(json.path("metadata").path("description").asText()).isEqualTo("nightly eval job");
        // OpenAI's fields are all there, null when unset; our extensions only when set
        assertThat(json.has("cancelled_at")).isTrue();
        assertThat(json.get("cancelled_at").isNull()).isTrue();
        assertThat(json.get("errors").isNull()).isTrue();
        assertThat(json.has("callback_url")).isFalse();
        assertThat(JobJson.read(JobJson.write(done), BatchState.class)).isEqualTo(done);
    }

    @Test
    void cancel_shouldEndCancelled_evenWhenPlannedAfterTheCancel() {
        // when: the cancel lands while the input is still being read
        BatchState cancelling = BatchState.created(ID, REQUEST, ANONYMOUS_OWNER, T0).cancelling(T0.plusSeconds(1));
        BatchState planned = cancelling.planned(PLAN, T0.plusSeconds(2));
        BatchState done = planned.finished(new LineCounts(1, 0, 0, 2, 0), null, "e", T0, T0.plusSeconds(3));

        // then
        assertThat(planned.status()).isEqualTo(BatchStatus.CANCELLING);
        assertThat(planned.plan()).isEqualTo(PLAN);
        assertThat(done.status()).isEqualTo(BatchStatus.CANCELLED);
        assertThat(done.cancelledAt()).isEqualTo(T0.plusSeconds(3));
        assertThat(done.counts()).isEqualTo(new RequestCounts(3, 1, 0));
        assertThat(done.isCancellable()).isFalse();
        assertThatThrownBy(() -> done.cancelling(T0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void finished_shouldBeExpired_whenALineOutlivedTheWindow_andFailedHoldsTheErrors() {
        // when
        BatchState expired = BatchState.created(ID, REQUEST, ANONYMOUS_OWNER, T0).planned(PLAN, T0)
                .finished(new LineCounts(1, 0, 2, 0, 0), null, null, T0, T0);
        BatchState failed = BatchState.created(ID, REQUEST, ANONYMOUS_OWNER, T0).failed(List.of(BatchError.of("empty_file", "none")),
                T0);

        // then
        assertThat(expired.status()).isEqualTo(BatchStatus.EXPIRED);
        assertThat(expired.counts()).isEqualTo(new RequestCounts(3, 1, 2));
        assertThat(failed.status()).isEqualTo(BatchStatus.FAILED);
        assertThat(BatchEvent.of(failed).type()).isEqualTo("batch.failed");
        assertThat(BatchEvent.of(failed).isSuccess()).isFalse();
        assertThat(BatchObject.of(failed).errors().data()).extracting(BatchError::code).containsExactly("empty_file");
        assertThatThrownBy(() -> BatchEvent.of(BatchState.created(ID, REQUEST, ANONYMOUS_OWNER, T0)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
