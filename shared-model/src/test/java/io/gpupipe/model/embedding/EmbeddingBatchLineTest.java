package io.gpupipe.model.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.batch.BatchEndpoint;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchLineParser;
import io.gpupipe.model.batch.BatchOutputs;
import io.gpupipe.model.batch.BatchRequestParser;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.batch.JsonlReader;
import io.gpupipe.model.batch.LineError;
import io.gpupipe.model.batch.ParsedLine;
import io.gpupipe.model.contract.OpenAiSpec;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code /v1/embeddings} batches: OpenAI's request lines become embedding jobs, and output lines its response. */
class EmbeddingBatchLineTest {
    private static final String INPUT = BatchLayout.inputKey(OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS),
            UUID.fromString("7f6e5d4c-3b2a-4f1e-8d0c-9b8a7f6e5d4c"));
    private static final String BATCH = BatchIds.newBatchId(UUID.fromString("3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f"));

    @Test
    void batch_shouldAcceptTheEmbeddingsEndpoint() {
        assertThat(BatchRequestParser.parse("{\"input_file_id\":\"" + INPUT + "\",\"endpoint\":\"/v1/embeddings\"}"))
                .isInstanceOf(BatchRequestParser.Outcome.Valid.class);
        assertThat(BatchEndpoint.EMBEDDINGS.task()).isEqualTo(Task.EMBED);
    }

    @Test
    void line_shouldBecomeAnEmbeddingJob_whenOpenAisSchemaAcceptsItsBody() {
        String body = "{\"model\":\"text-embedding-3-small\",\"input\":[\"Once upon a time\",\"there was\"],"
                + "\"dimensions\":16,\"encoding_format\":\"base64\",\"user\":\"u-1\"}";
        OpenAiSpec spec = OpenAiSpec.get();
        assertThat(spec.problems(spec.requestSchema("/embeddings"), body)).isEmpty();

        InferenceJob job = job(parse(body));

        assertThat(job.task()).isEqualTo(Task.EMBED);
        assertThat(job.input()).containsExactly("Once upon a time", "there was");
        assertThat(job.dimensions()).isEqualTo(16);
        assertThat(job.encodingFormat()).isEqualTo(EncodingFormat.BASE64);
        assertThat(job.route()).as("a model name that is no tier leaves routing to the catalogue").isNull();
        assertThat(job.batch()).isEqualTo(new BatchMember(BATCH, 0, 1, 1));
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource(delimiter = '|', value = {
        "{\"model\":\"m\"}                                          | input           | required",
        "{\"model\":\"m\",\"input\":\"\"}                           | input           | required",
        "{\"model\":\"m\",\"input\":[1212,318]}                     | input[0]        | invalid_type",
        "{\"model\":\"m\",\"input\":\"a\",\"dimensions\":0}         | dimensions      | out_of_range",
        "{\"model\":\"m\",\"input\":\"a\",\"encoding_format\":\"hex\"} | encoding_format | invalid_value",
        "{\"input\":\"a\",\"model\":\"small\"}                     | model           | invalid_value"})
    void line_shouldBeRefused_namingTheBodysParameter(String body, String field, String code) {
        ParsedLine parsed = parse(body);

        assertThat(parsed).isInstanceOf(ParsedLine.Invalid.class);
        LineError error = ((ParsedLine.Invalid) parsed).error();
        assertThat(error.code()).isEqualTo(LineError.INVALID_REQUEST);
        assertThat(error.fieldErrors()).extracting(FieldError::field, FieldError::code)
                .contains(org.assertj.core.groups.Tuple.tuple(field, code));
    }

    @Test
    void outputLine_shouldCarryOpenAisEmbeddingResponse() {
        String id = BatchIds.jobId(BATCH, 1);
        EmbeddingResponse response = EmbeddingResponse.of(List.of(new float[] {0.1f, 0.2f}), EncodingFormat.FLOAT,
                "bge-small-en-v1.5", 4);
        JobResult result = new JobResult(id, JobStatus.SUCCEEDED, Task.EMBED, JobResult.Output.embeddings(response),
                null, Tier.of("embed"), "bge-small-en-v1.5", null, 40L, 5L, 1, null, null,
                Instant.parse("2026-12-01T10:00:00Z"));

        BatchOutputs.Written written = BatchOutputs.ofResult(BATCH, new ChunkManifest.Entry(1, "e-1", id, null),
                result, BatchEndpoint.EMBEDDINGS);

        assertThat(written.file()).isEqualTo(BatchLayout.File.OUTPUT);
        JsonNode body = JobJson.read(written.line().toJson(), JsonNode.class).at("/response/body");
        OpenAiSpec spec = OpenAiSpec.get();
        spec.assertConforms(spec.responseSchema("/embeddings", 200), body.toString());
        assertThat(body.toString()).isEqualTo(JobJson.write(response));
    }

    private static ParsedLine parse(String body) {
        String line = "{\"custom_id\":\"e-1\",\"method\":\"POST\",\"url\":\"/v1/embeddings\",\"body\":" + body + "}";
        return new BatchLineParser(new JobRequestParser(), BatchEndpoint.EMBEDDINGS, BATCH, 86_400,
                n -> new BatchMember(BATCH, 0, n, 1)).parse(new JsonlReader.Line.Text(1, 0, line.length(), line),
                Optional.empty());
    }

    private static InferenceJob job(ParsedLine parsed) {
        assertThat(parsed).as(parsed.toString()).isInstanceOf(ParsedLine.Job.class);
        return ((ParsedLine.Job) parsed).job();
    }
}
