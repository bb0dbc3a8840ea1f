package io.gpupipe.model.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.BatchIds;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BatchTaskTest {
    private static final String ID = BatchIds.newBatchId(UUID.fromString("8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d"));

    @Test
    void task_shouldRoundTrip_andRefuseAMissingOrStrayChunk() {
        // when
        BatchTask submit = BatchTask.read(BatchTask.ofChunk(BatchTask.Type.SUBMIT_CHUNK, ID, 4).toJson());

        // then
        assertThat(submit).isEqualTo(BatchTask.ofChunk(BatchTask.Type.SUBMIT_CHUNK, ID, 4));
        assertThat(BatchTask.of(BatchTask.Type.PLAN, ID).toJson()).isEqualTo("{\"type\":\"plan\",\"batchId\":\""
                + ID + "\"}");
        assertThatThrownBy(() -> BatchTask.of(BatchTask.Type.CHUNK_ENDED, ID))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BatchTask.read("{\"type\":\"plan\",\"batchId\":\"x\"}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BatchTask.read("{\"type\":\"explode\",\"batchId\":\"" + ID + "\"}"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void membership_shouldTravelFromJobThroughQueueMessageToMarkerAndResult() {
        // given: line 12 of chunk 0, as the batch function submits it
        BatchMember member = new BatchMember(ID, 0, 12, 40);
        InferenceJob job = ((JobRequestParser.Outcome.Valid) new JobRequestParser().parse("{\"requestId\":\""
                + member.requestId() + "\",\"prompt\":\"hi\"}", JobRequestParser.Source.API)).job().withBatch(member);

        // when: the worker reads the queue message back
        InferenceJob read = ((JobRequestParser.Outcome.Valid) new JobRequestParser().parse(JobMessage.inline(job),
                JobRequestParser.Source.QUEUE)).job();

        // then
        assertThat(read.batch()).isEqualTo(member);
        assertThat(JobState.queued(read, Tier.of("small"), Instant.EPOCH).running("t", Instant.EPOCH).batch())
                .isEqualTo(member);
        JobResult result = JobResult.failed(read, JobResult.JobError.of("model_error", "x"), null, Instant.EPOCH);
        assertThat(JobJson.read(JobJson.write(result), JobResult.class).batch()).isEqualTo(member);
    }

    @Test
    void membership_shouldBeRefused_fromTheApiOrUnderAnotherJobsId() {
        // given
        BatchMember member = new BatchMember(ID, 0, 12, 40);
        String other = UUID.randomUUID().toString();

        // when
        var fromApi = new JobRequestParser().parse("{\"prompt\":\"hi\",\"batch\":" + JobJson.write(member) + "}",
                JobRequestParser.Source.API);
        var forged = new JobRequestParser().parse("{\"requestId\":\"" + other + "\",\"prompt\":\"hi\",\"batch\":"
                + JobJson.write(member) + "}", JobRequestParser.Source.QUEUE);

        // then: an API client cannot make its job a batch line, nor can a queue message claim another line's id
        assertThat(((JobRequestParser.Outcome.Valid) fromApi).job().batch()).isNull();
        assertThat(((JobRequestParser.Outcome.Invalid) forged).errors()).extracting(e -> e.field())
                .containsExactly("batch");
        assertThat(job(member).task()).isEqualTo(Task.GENERATE);
    }

    private static InferenceJob job(BatchMember member) {
        return new InferenceJob(member.requestId(), Task.GENERATE, "x", 1, 0, 1, null, null, null, null, null, null,
                null, null, null, null, null, null, member);
    }
}
