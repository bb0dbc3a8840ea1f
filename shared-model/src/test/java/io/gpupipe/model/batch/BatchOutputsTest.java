package io.gpupipe.model.batch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobResult;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Output and error lines in OpenAI's "request output object" shape. */
class BatchOutputsTest {
    private static final String BATCH = BatchIds.newBatchId(UUID.fromString("0c9d8e7f-6a5b-4c3d-9e1f-2a3b4c5d6e7f"));
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");
    private static final String ID = BatchIds.jobId(BATCH, 3);
    private static final ChunkManifest.Entry ENTRY = new ChunkManifest.Entry(3, "request-3", ID, null);
    private static final JobResult.Provenance RUN = new JobResult.Provenance(Tier.of("small"), "stories260K", null,
            null, 1, 5L, 40L);

    @Test
    void ofResult_shouldWriteAChatCompletionToTheOutputFile_whenTheJobSucceeded() throws Exception {
        // given
        JobResult result = new JobResult(ID, JobStatus.SUCCEEDED, Task.GENERATE,
                JobResult.Output.text("2 + 2 equals 4.", JobResult.Usage.of(24, 8), "stop"), null, Tier.of("small"),
                "stories260K", null, 40L, 5L, 1, null, null, AT);

        // when
        BatchOutputs.Written written = BatchOutputs.ofResult(BATCH, ENTRY, result, BatchEndpoint.CHAT_COMPLETIONS);

        // then: the fields OpenAI's example output line has (id, custom_id, response{status_code, request_id,
        // body{id, object, created, model, choices[{index, message{role, content}, finish_reason}], usage}}, error)
        assertThat(written.file()).isEqualTo(BatchLayout.File.OUTPUT);
        JsonNode line = JobJson.mapper().readTree(written.line().toJson());
        assertThat(line.path("id").asText()).isEqualTo(BatchIds.lineId(BATCH, 3));
        assertThat(line.path("custom_id").asText()).isEqualTo("request-3");
        assertThat(line.has("error")).isTrue();
        assertThat(line.get("error").isNull()).isTrue();
        assertThat(line.at("/response/status_code").asInt()).isEqualTo(200);
        assertThat(line.at("/response/request_id").asText()).isEqualTo(ID);
        JsonNode body = line.at("/response/body");
        assertThat(body.path("object").asText()).isEqualTo("chat.completion");
        assertThat(body.path("created").asLong()).isEqualTo(AT.getEpochSecond());
        assertThat(body.at("/choices/0/message/role").asText()).isEqualTo("assistant");
        assertThat(body.at("/choices/0/message/content").asText()).isEqualTo("2 + 2 equals 4.");
        assertThat(body.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(body.at("/usage/total_tokens").asInt()).isEqualTo(32);
    }

    @Test
    void ofResult_shouldWriteTextCompletionsAndSpeech_inTheirEndpointsShape() throws Exception {
        // given
        JobResult completion = new JobResult(ID, JobStatus.SUCCEEDED, Task.GENERATE,
                JobResult.Output.text(" there was", JobResult.Usage.of(4, 3), "length"), null, null, "m", null, null,
                null, null, null, null, AT);
        JobResult speech = new JobResult(ID, JobStatus.SUCCEEDED, Task.SPEECH,
                JobResult.Output.audio("results/" + ID + ".wav", "wav", 24_000, 1_500L), null, null, "tts", null,
                null, null, null, null, null, AT);

        // when
        JsonNode cmpl = body(BatchOutputs.ofResult(BATCH, ENTRY, completion, BatchEndpoint.COMPLETIONS));
        JsonNode audio = body(BatchOutputs.ofResult(BATCH, ENTRY, speech, BatchEndpoint.SPEECH));

        // then
        assertThat(cmpl.path("object").asText()).isEqualTo("text_completion");
        assertThat(cmpl.at("/choices/0/text").asText()).isEqualTo(" there was");
        assertThat(cmpl.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(audio.path("object").asText()).isEqualTo("audio.speech");
        assertThat(audio.path("audio_file_id").asText()).isEqualTo("results/" + ID + ".wav");
        assertThat(audio.path("sample_rate").asInt()).isEqualTo(24_000);
    }

    @Test
    void ofResult_shouldAnswerFailedJobsAsHttpErrors_andExpiredOnesAsBatchExpired() throws Exception {
        // given
        JobResult unavailable = JobResult.failed(ID, Task.GENERATE, null, JobResult.JobError.of(
                ErrorCodes.MODEL_UNAVAILABLE, "no text model"), RUN, AT);
        JobResult tooLong = JobResult.failed(ID, Task.GENERATE, null, new JobResult.JobError(
                ErrorCodes.PROMPT_TOO_LONG, "context exceeded", List.of(new FieldError("prompt", "too_long", "x"))),
                RUN, AT);
        JobResult expired = JobResult.failed(ID, Task.GENERATE, null, JobResult.JobError.of(ErrorCodes.EXPIRED,
                "ttl passed"), RUN, AT);

        // when
        BatchOutputs.Written a = BatchOutputs.ofResult(BATCH, ENTRY, unavailable, BatchEndpoint.CHAT_COMPLETIONS);
        JsonNode b = line(BatchOutputs.ofResult(BATCH, ENTRY, tooLong, BatchEndpoint.CHAT_COMPLETIONS));
        JsonNode c = line(BatchOutputs.ofResult(BATCH, ENTRY, expired, BatchEndpoint.CHAT_COMPLETIONS));

        // then
        assertThat(a.file()).isEqualTo(BatchLayout.File.ERRORS);
        JsonNode first = JobJson.mapper().readTree(a.line().toJson());
        assertThat(first.at("/response/status_code").asInt()).isEqualTo(503);
        assertThat(first.at("/response/body/error/type").asText()).isEqualTo("server_error");
        assertThat(first.at("/response/body/error/code").asText()).isEqualTo(ErrorCodes.MODEL_UNAVAILABLE);
        assertThat(b.at("/response/status_code").asInt()).isEqualTo(400);
        assertThat(b.at("/response/body/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(b.at("/response/body/error/param").asText()).isEqualTo("prompt");
        assertThat(c.get("response").isNull()).isTrue();
        assertThat(c.at("/error/code").asText()).isEqualTo(BatchOutputs.BATCH_EXPIRED);
    }

    @Test
    void ofInvalidAndCancelled_shouldWriteErrorLines() throws Exception {
        // given
        ChunkManifest.Entry refused = new ChunkManifest.Entry(4, "request-5", null, new LineError(
                LineError.INVALID_REQUEST, "max_tokens must be between 1 and 2048", List.of(new FieldError(
                "max_tokens", ErrorCodes.OUT_OF_RANGE, "max_tokens must be between 1 and 2048, got 1000000"))));
        ChunkManifest.Entry notJson = new ChunkManifest.Entry(9, null, null, LineError.of(LineError.INVALID_JSON,
                "the line is not JSON"));

        // when
        JsonNode a = line(BatchOutputs.ofInvalid(BATCH, refused));
        JsonNode b = line(BatchOutputs.ofInvalid(BATCH, notJson));
        JsonNode c = line(BatchOutputs.ofCancelled(BATCH, ENTRY));

        // then: a refused body reads as OpenAI's 400 error line (response.body.error, error null)
        assertThat(a.at("/response/status_code").asInt()).isEqualTo(400);
        assertThat(a.at("/response/body/error/param").asText()).isEqualTo("max_tokens");
        assertThat(a.at("/response/body/error/code").asText()).isEqualTo(ErrorCodes.OUT_OF_RANGE);
        assertThat(a.get("error").isNull()).isTrue();
        assertThat(b.get("custom_id").isNull()).isTrue();
        assertThat(b.at("/error/code").asText()).isEqualTo(LineError.INVALID_JSON);
        assertThat(b.at("/error/message").asText()).startsWith("line 9: ");
        assertThat(c.at("/error/code").asText()).isEqualTo(BatchOutputs.BATCH_CANCELLED);
    }

    @Test
    void ofEnded_shouldWriteEachEndedLine_andNothingForALineStillRunning() {
        // given
        JobResult result = new JobResult(ID, JobStatus.SUCCEEDED, Task.GENERATE,
                JobResult.Output.text("Once upon a time.", JobResult.Usage.of(4, 4), "stop"), null, Tier.of("small"),
                "stories260K", null, 40L, 5L, 1, null, null, AT);
        ChunkManifest.Entry invalid = new ChunkManifest.Entry(4, null, null, LineError.of(LineError.INVALID_JSON,
                "not JSON"));

        // then
        assertThat(BatchOutputs.ofEnded(BATCH, ENTRY, LineOutcome.SUCCEEDED, Optional.of(result),
                BatchEndpoint.COMPLETIONS)).contains(BatchOutputs.ofResult(BATCH, ENTRY, result,
                BatchEndpoint.COMPLETIONS));
        assertThat(BatchOutputs.ofEnded(BATCH, invalid, LineOutcome.INVALID, Optional.empty(),
                BatchEndpoint.COMPLETIONS)).contains(BatchOutputs.ofInvalid(BATCH, invalid));
        assertThat(BatchOutputs.ofEnded(BATCH, ENTRY, LineOutcome.CANCELLED, Optional.empty(),
                BatchEndpoint.COMPLETIONS)).contains(BatchOutputs.ofCancelled(BATCH, ENTRY));
        assertThat(BatchOutputs.ofEnded(BATCH, ENTRY, LineOutcome.CANCELLED, Optional.of(result),
                BatchEndpoint.COMPLETIONS)).as("a cancelled line whose job ran anyway: its result")
                .map(BatchOutputs.Written::file).contains(BatchLayout.File.OUTPUT);
        assertThat(BatchOutputs.ofEnded(BATCH, ENTRY, null, Optional.empty(), BatchEndpoint.COMPLETIONS))
                .as("not ended yet").isEmpty();
    }

    private static JsonNode line(BatchOutputs.Written written) throws Exception {
        return JobJson.mapper().readTree(written.line().toJson());
    }

    private static JsonNode body(BatchOutputs.Written written) throws Exception {
        return line(written).at("/response/body");
    }
}
