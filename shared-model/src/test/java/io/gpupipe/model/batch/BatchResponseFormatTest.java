package io.gpupipe.model.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.BatchIds;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.format.ResponseFormat;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobRequestParser;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code response_format} on the text lines of a batch: mapped onto the job's format, its errors named OpenAI's way. */
class BatchResponseFormatTest {
    private static final String BATCH = BatchIds.newBatchId(UUID.fromString("2c8f3d5e-0b4a-4f9c-9d7e-3a6b2f0c4d8e"));
    private static final String PERSON = "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"person\",\"strict\":true,"
            + "\"schema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"],"
            + "\"additionalProperties\":false}}}";

    @Test
    void parse_shouldCarryTheFormat_whenAChatLineAsksForASchema() {
        InferenceJob job = job(parse(BatchEndpoint.CHAT_COMPLETIONS, "{\"model\":\"gpt-4o-mini\",\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"Name a cat.\"}],\"response_format\":" + PERSON + "}"));

        assertThat(job.responseFormat().type()).isEqualTo(ResponseFormat.Type.JSON_SCHEMA);
        assertThat(job.responseFormat().jsonSchema().name()).isEqualTo("person");
        assertThat(job.responseFormat().jsonSchema().strict()).isTrue();
    }

    @Test
    void parse_shouldCarryJsonObject_onACompletionsLine_asVllmTakesIt() {
        InferenceJob job = job(parse(BatchEndpoint.COMPLETIONS, "{\"prompt\":\"A cat as JSON:\","
                + "\"response_format\":{\"type\":\"json_object\"}}"));

        assertThat(job.responseFormat()).isEqualTo(ResponseFormat.jsonObject());
    }

    @Test
    void parse_shouldNameTheBodysParameter_whenTheFormatIsWrong() {
        LineError error = error(parse(BatchEndpoint.CHAT_COMPLETIONS, "{\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"x\"}],\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"a b\","
                + "\"schema\":{\"type\":\"strnig\"}}}}"));

        assertThat(error.code()).isEqualTo(LineError.INVALID_REQUEST);
        assertThat(error.fieldErrors()).extracting(FieldError::field).containsExactlyInAnyOrder(
                "response_format.json_schema.name", "response_format.json_schema.schema");
        assertThat(error.fieldErrors()).allSatisfy(e -> assertThat(e.message()).startsWith("response_format."));
    }

    @Test
    void parse_shouldRefuseAnUnknownType_onAChatLine() {
        LineError error = error(parse(BatchEndpoint.CHAT_COMPLETIONS, "{\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"x\"}],\"response_format\":{\"type\":\"yaml\"}}"));

        assertThat(error.fieldErrors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("response_format.type");
            assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_VALUE);
        });
    }

    @Test
    void parse_shouldStillTakeWavOnly_onASpeechLine() {
        LineError error = error(parse(BatchEndpoint.SPEECH, "{\"input\":\"Hello.\",\"response_format\":"
                + "{\"type\":\"json_object\"}}"));

        assertThat(error.fieldErrors()).extracting(FieldError::field).containsExactly("response_format");
    }

    private static ParsedLine parse(BatchEndpoint endpoint, String body) {
        String line = "{\"custom_id\":\"l\",\"method\":\"POST\",\"url\":\"" + endpoint.path() + "\",\"body\":" + body
                + "}";
        return new BatchLineParser(new JobRequestParser(), endpoint, BATCH, 86_400,
                number -> new BatchMember(BATCH, 0, number, 1))
                .parse(new JsonlReader.Line.Text(1, 0, line.length(), line), Optional.empty());
    }

    private static InferenceJob job(ParsedLine parsed) {
        assertThat(parsed).as(parsed.toString()).isInstanceOf(ParsedLine.Job.class);
        return ((ParsedLine.Job) parsed).job();
    }

    private static LineError error(ParsedLine parsed) {
        assertThat(parsed).as(parsed.toString()).isInstanceOf(ParsedLine.Invalid.class);
        return ((ParsedLine.Invalid) parsed).error();
    }
}
