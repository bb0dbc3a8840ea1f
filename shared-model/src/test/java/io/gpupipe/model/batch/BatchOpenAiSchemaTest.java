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
import io.gpupipe.model.contract.Deviation;
import io.gpupipe.model.contract.OpenAiSpec;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The Batch API bodies we read and write, judged by OpenAI's published description: the response bodies of output
 * and error lines (CreateCompletionResponse, CreateChatCompletionResponse, ErrorResponse), the batch object (Batch)
 * and its errors (BatchError), and the request bodies of input lines. The description at the pinned commit has no
 * schema for the line envelopes ({@code custom_id}, {@code response.status_code}…); BatchOutputsTest holds those to
 * the API reference's example lines. Speech lines have no OpenAI counterpart (OpenAI batches have no speech).
 */
class BatchOpenAiSchemaTest {
    private static final Owner ANONYMOUS_OWNER = OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS);
    private static final String BATCH = BatchIds.newBatchId(UUID.fromString("3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f"));
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");
    private static final String ID = BatchIds.jobId(BATCH, 1);
    private static final ChunkManifest.Entry ENTRY = new ChunkManifest.Entry(1, "request-1", ID, null);
    private static final JobResult.Provenance RUN = new JobResult.Provenance(Tier.of("small"), "m", null, null, 1,
            5L, 40L);
    /** Our batch object's own fields (BatchObject: presigned file links, the callback), set only when used. */
    private static final String OURS = "gpupipe BatchObject: presigned links and the callback, only when set";
    /**
     * OpenAI's Batch schema types unset timestamps, file ids and {@code errors} without null, yet its own example of
     * the batch object (x-oaiMeta.example of Batch, same file) answers {@code "errors": null, "failed_at": null}: we
     * answer as the example does.
     */
    private static final String OPENAI_EXAMPLE = "OpenAI's Batch example (x-oaiMeta) answers null for unset fields";

    private final OpenAiSpec spec = OpenAiSpec.get();

    @Test
    void outputLine_shouldCarryOpenAisChatCompletion_whenAChatJobSucceeded() {
        JobResult result = new JobResult(ID, JobStatus.SUCCEEDED, Task.GENERATE, JobResult.Output.text("4.",
                JobResult.Usage.of(24, 2), "stop"), null, Tier.of("small"), "m", null, 40L, 5L, 1, null, null, AT);

        spec.assertConforms(spec.responseSchema("/chat/completions", 200), responseBody(BatchOutputs.ofResult(BATCH,
                ENTRY, result, BatchEndpoint.CHAT_COMPLETIONS)));
    }

    @Test
    void outputLine_shouldCarryOpenAisTextCompletion_whenACompletionJobSucceeded() {
        JobResult result = new JobResult(ID, JobStatus.SUCCEEDED, Task.GENERATE, JobResult.Output.text(" there",
                JobResult.Usage.of(4, 1), "length"), null, null, "m", null, null, null, null, null, null, AT);

        spec.assertConforms(spec.responseSchema("/completions", 200), responseBody(BatchOutputs.ofResult(BATCH,
                ENTRY, result, BatchEndpoint.COMPLETIONS)));
    }

    @Test
    void errorLine_shouldCarryOpenAisErrorResponse_whenAJobFailedOrALineWasRefused() {
        JobResult unavailable = JobResult.failed(ID, Task.GENERATE, null, JobResult.JobError.of(
                ErrorCodes.MODEL_UNAVAILABLE, "no text model"), RUN, AT);
        JobResult tooLong = JobResult.failed(ID, Task.GENERATE, null, new JobResult.JobError(
                ErrorCodes.PROMPT_TOO_LONG, "context exceeded", List.of(new FieldError("prompt", "too_long", "x"))),
                RUN, AT);
        ChunkManifest.Entry refused = new ChunkManifest.Entry(2, "request-2", null, new LineError(
                LineError.INVALID_REQUEST, "max_tokens out of range", List.of(new FieldError("max_tokens",
                ErrorCodes.OUT_OF_RANGE, "max_tokens must be between 1 and 2048, got 1000000"))));

        spec.assertConforms("ErrorResponse", responseBody(BatchOutputs.ofResult(BATCH, ENTRY, unavailable,
                BatchEndpoint.CHAT_COMPLETIONS)));
        spec.assertConforms("ErrorResponse", responseBody(BatchOutputs.ofResult(BATCH, ENTRY, tooLong,
                BatchEndpoint.COMPLETIONS)));
        spec.assertConforms("ErrorResponse", responseBody(BatchOutputs.ofInvalid(BATCH, refused)),
                Deviation.extension("errors", "gpupipe BatchOutputs.ofInvalid: every field error of a refused body"));
    }

    @Test
    void batchObject_shouldBeOpenAisBatch_atEveryStage() {
        BatchRequest request = new BatchRequest(BatchLayout.inputKey(ANONYMOUS_OWNER, UUID.fromString(
                "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d")), BatchEndpoint.COMPLETIONS, "24h", Map.of("team", "eval"),
                "https://example.com/hook");
        BatchState created = BatchState.created(BATCH, request, ANONYMOUS_OWNER, AT);
        BatchState done = created.planned(new BatchPlan(1, List.of(new ChunkPlan(0, 1, 0, 99, 1, List.of()))), AT)
                .finished(new LineCounts(1, 0, 0, 0, 0), "batches/" + BATCH + "/output.jsonl", null, AT, AT);
        BatchState failed = BatchState.created(BATCH, request, ANONYMOUS_OWNER, AT).failed(List.of(BatchError.of("empty_file",
                "the input file has no lines")), AT);

        for (BatchState state : List.of(created, done, failed)) {
            spec.assertConforms("Batch", JobJson.write(BatchObject.of(state)), batchDeviations());
        }
    }

    @Test
    void inputLines_shouldBeJobs_exactlyWhenOpenAisSchemaAcceptsTheirBody() {
        // OpenAI's example lines (test resource batches/openai-example.jsonl), a completion, a max_completion_tokens
        // chat, and a message of no known role
        String chat = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                + "{\"role\":\"user\",\"content\":\"What is 2+2?\"}],\"max_completion_tokens\":50}";
        String completion = "{\"model\":\"gpt-3.5-turbo-instruct\",\"prompt\":\"Once upon a time\",\"max_tokens\":7,"
                + "\"temperature\":0.2,\"top_p\":0.9}";
        String badRole = "{\"model\":\"m\",\"messages\":[{\"role\":\"robot\",\"content\":\"Beep.\"}]}";

        assertThat(spec.problems(spec.requestSchema("/chat/completions"), chat)).isEmpty();
        assertThat(parse(BatchEndpoint.CHAT_COMPLETIONS, chat)).isInstanceOf(ParsedLine.Job.class);
        assertThat(spec.problems(spec.requestSchema("/completions"), completion)).isEmpty();
        assertThat(parse(BatchEndpoint.COMPLETIONS, completion)).isInstanceOf(ParsedLine.Job.class);
        assertThat(spec.problems(spec.requestSchema("/chat/completions"), badRole)).isNotEmpty();
        assertThat(parse(BatchEndpoint.CHAT_COMPLETIONS, badRole)).isInstanceOf(ParsedLine.Invalid.class);
    }

    @Test
    void chatLinesWithAResponseFormat_shouldBeJobs_exactlyWhenOpenAisSchemaAcceptsTheirBody() {
        String messages = "\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Name a cat.\"}]";
        String schema = "{" + messages + ",\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":"
                + "\"cat\",\"strict\":true,\"schema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":"
                + "\"string\"}},\"required\":[\"name\"],\"additionalProperties\":false}}}}";
        String object = "{" + messages + ",\"response_format\":{\"type\":\"json_object\"}}";
        String text = "{" + messages + ",\"response_format\":{\"type\":\"text\"}}";
        String noName = "{" + messages + ",\"response_format\":{\"type\":\"json_schema\",\"json_schema\":"
                + "{\"schema\":{\"type\":\"object\"}}}}";
        String unknownType = "{" + messages + ",\"response_format\":{\"type\":\"yaml\"}}";

        for (String accepted : new String[] {schema, object, text}) {
            assertThat(spec.problems(spec.requestSchema("/chat/completions"), accepted)).as(accepted).isEmpty();
            assertThat(parse(BatchEndpoint.CHAT_COMPLETIONS, accepted)).as(accepted).isInstanceOf(ParsedLine.Job.class);
        }
        for (String refused : new String[] {noName, unknownType}) {
            assertThat(spec.problems(spec.requestSchema("/chat/completions"), refused)).as(refused).isNotEmpty();
            assertThat(parse(BatchEndpoint.CHAT_COMPLETIONS, refused)).as(refused)
                    .isInstanceOf(ParsedLine.Invalid.class);
        }
    }

    private static Deviation[] batchDeviations() {
        return new Deviation[] {
            Deviation.extension("callback_url", OURS), Deviation.extension("output_file_url", OURS),
            Deviation.extension("error_file_url", OURS), Deviation.extension("file_urls_expire_at", OURS),
            Deviation.nullForAbsent("errors", OPENAI_EXAMPLE), Deviation.nullForAbsent("output_file_id",
                OPENAI_EXAMPLE), Deviation.nullForAbsent("error_file_id", OPENAI_EXAMPLE),
            Deviation.nullForAbsent("in_progress_at", OPENAI_EXAMPLE), Deviation.nullForAbsent("finalizing_at",
                OPENAI_EXAMPLE), Deviation.nullForAbsent("completed_at", OPENAI_EXAMPLE),
            Deviation.nullForAbsent("failed_at", OPENAI_EXAMPLE), Deviation.nullForAbsent("expired_at",
                OPENAI_EXAMPLE), Deviation.nullForAbsent("cancelling_at", OPENAI_EXAMPLE),
            Deviation.nullForAbsent("cancelled_at", OPENAI_EXAMPLE), Deviation.nullForAbsent("expires_at",
                OPENAI_EXAMPLE), Deviation.nullForAbsent("request_counts", OPENAI_EXAMPLE)
        };
    }

    private static ParsedLine parse(BatchEndpoint endpoint, String body) {
        String line = "{\"custom_id\":\"c-1\",\"method\":\"POST\",\"url\":\"" + endpoint.path() + "\",\"body\":"
                + body + "}";
        return new BatchLineParser(new JobRequestParser(), endpoint, BATCH, 86_400, n -> new BatchMember(BATCH, 0,
                n, 1)).parse(new JsonlReader.Line.Text(1, 0, line.length(), line), Optional.empty());
    }

    private static String responseBody(BatchOutputs.Written written) {
        JsonNode line = JobJson.read(written.line().toJson(), JsonNode.class);
        return line.at("/response/body").toString();
    }
}
