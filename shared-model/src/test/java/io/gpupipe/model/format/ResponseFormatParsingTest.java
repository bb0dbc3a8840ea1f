package io.gpupipe.model.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser.Outcome;
import io.gpupipe.model.job.JobRequestParser.Source;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A job's {@code responseFormat}: each rule refuses with a 400-style error naming the field, the valid ones kept. */
class ResponseFormatParsingTest {
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private static final String SCHEMA = """
            {"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}},
             "required":["name","age"],"additionalProperties":false}""";
    private final JobRequestParser parser = new JobRequestParser();

    private static String job(String responseFormat) {
        return "{\"prompt\":\"Describe a person as JSON.\",\"responseFormat\":" + responseFormat + "}";
    }

    private static String schemaFormat(String name, String schema) {
        return job("{\"type\":\"json_schema\",\"json_schema\":{\"name\":" + name + ",\"schema\":" + schema + "}}");
    }

    private InferenceJob valid(String json) {
        Outcome outcome = parser.parse(json, Source.API);
        assertThat(outcome).as(json).isInstanceOf(Outcome.Valid.class);
        return ((Outcome.Valid) outcome).job();
    }

    private FieldError onlyError(String json) {
        Outcome outcome = parser.parse(json, Source.API);
        assertThat(outcome).as(json).isInstanceOf(Outcome.Invalid.class);
        List<FieldError> errors = ((Outcome.Invalid) outcome).errors();
        assertThat(errors).as(json).hasSize(1);
        return errors.get(0);
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource(delimiter = '|', value = {
        "\"json\"                                       | responseFormat      | invalid_type",
        "[]                                             | responseFormat      | invalid_type",
        "{}                                             | responseFormat.type | required",
        "{\"type\":7}                                   | responseFormat.type | invalid_type",
        "{\"type\":\"json\"}                            | responseFormat.type | invalid_value",
        "{\"type\":\"JSON_OBJECT\"}                     | responseFormat.type | invalid_value",
        "{\"type\":\"json_schema\"}                     | responseFormat.json_schema | required",
        "{\"type\":\"json_schema\",\"json_schema\":[]}  | responseFormat.json_schema | invalid_type",
        "{\"type\":\"json_object\",\"json_schema\":{\"name\":\"a\",\"schema\":{}}} | responseFormat.json_schema"
                + " | not_applicable",
        "{\"type\":\"json_schema\",\"json_schema\":{\"schema\":{}}} | responseFormat.json_schema.name | required",
        "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"a\"}} | responseFormat.json_schema.schema | required",
        "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"a\",\"schema\":true}} | responseFormat.json_schema.schema"
                + " | invalid_type",
        "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"a\",\"schema\":\"{}\"}} | "
                + "responseFormat.json_schema.schema | invalid_type",
        "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"a\",\"schema\":{},\"strict\":\"yes\"}} | "
                + "responseFormat.json_schema.strict | invalid_type",
        "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"a\",\"schema\":{},\"description\":5}} | "
                + "responseFormat.json_schema.description | invalid_type"})
    void parse_shouldRejectNamingTheField_whenTheFormatsShapeIsWrong(String format, String field, String code) {
        FieldError error = onlyError(job(format));

        assertThat(error.field()).isEqualTo(field);
        assertThat(error.code()).isEqualTo(code);
        assertThat(error.message()).startsWith(field);
    }

    @ParameterizedTest(name = "name {0}")
    @CsvSource({"'\"\"'", "'\"has space\"'", "'\"dot.name\"'", "'\"ünïcode\"'", "7",
        "'\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"'"})
    void parse_shouldRejectTheName_whenItBreaksOpenAisRule(String name) {
        FieldError error = onlyError(schemaFormat(name, SCHEMA));

        assertThat(error.field()).isEqualTo("responseFormat.json_schema.name");
        assertThat(error.code()).isIn(ErrorCodes.INVALID_FORMAT, ErrorCodes.INVALID_TYPE);
    }

    @Test
    void parse_shouldAcceptTheName_whenItIsSixtyFourAllowedCharacters() {
        String name = "a_B-9".repeat(12) + "abcd";

        InferenceJob job = valid(schemaFormat("\"" + name + "\"", SCHEMA));

        assertThat(job.responseFormat().jsonSchema().name()).hasSize(64).isEqualTo(name);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "{\"type\":\"strnig\"}",
        "{\"type\":\"object\",\"properties\":5}",
        "{\"type\":\"object\",\"required\":\"name\"}",
        "{\"type\":\"string\",\"minLength\":-1}",
        "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":[\"string\",7]}}}",
        "{\"enum\":{}}",
        "{\"$defs\":{\"a\":{\"type\":\"nope\"}},\"$ref\":\"#/$defs/a\"}"})
    void parse_shouldRejectTheSchema_whenTheMetaSchemaRefusesIt(String schema) {
        FieldError error = onlyError(schemaFormat("\"person\"", schema));

        assertThat(error.field()).isEqualTo("responseFormat.json_schema.schema");
        assertThat(error.code()).isEqualTo(ErrorCodes.INVALID_VALUE);
        assertThat(error.message()).contains("not a valid JSON Schema (draft 2020-12)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "{\"$ref\":\"https://example.com/person.json\"}",
        "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"other.json#/a\"}}}",
        "{\"$dynamicRef\":\"http://127.0.0.1/x\"}",
        "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\"}",
        "{\"type\":\"string\",\"pattern\":\"[a-\"}",
        "{\"type\":\"object\",\"patternProperties\":{\"(unclosed\":{}}}"})
    void parse_shouldRejectTheSchema_whenItReachesOutsideItselfOrHasABrokenPattern(String schema) {
        FieldError error = onlyError(schemaFormat("\"person\"", schema));

        assertThat(error.field()).isEqualTo("responseFormat.json_schema.schema");
        assertThat(error.code()).isEqualTo(ErrorCodes.INVALID_VALUE);
    }

    @Test
    void parse_shouldRejectTheSchema_whenItIsOverTheSizeLimit() {
        StringBuilder properties = new StringBuilder();
        for (int i = 0; properties.length() <= ResponseFormatReader.MAX_SCHEMA_CHARS; i++) {
            properties.append(i == 0 ? "" : ",").append("\"field").append(i).append("\":{\"type\":\"string\"}");
        }

        FieldError error = onlyError(schemaFormat("\"big\"", "{\"type\":\"object\",\"properties\":{" + properties
                + "}}"));

        assertThat(error.field()).isEqualTo("responseFormat.json_schema.schema");
        assertThat(error.code()).isEqualTo(ErrorCodes.TOO_LONG);
        assertThat(error.message()).contains(String.valueOf(ResponseFormatReader.MAX_SCHEMA_CHARS));
    }

    @Test
    void parse_shouldRejectTheDescription_whenItIsOverItsLimit() {
        String description = "d".repeat(ResponseFormatReader.MAX_DESCRIPTION_CHARS + 1);

        FieldError error = onlyError(job("{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"a\",\"schema\":{},"
                + "\"description\":\"" + description + "\"}}"));

        assertThat(error.field()).isEqualTo("responseFormat.json_schema.description");
        assertThat(error.code()).isEqualTo(ErrorCodes.TOO_LONG);
    }

    @Test
    void parse_shouldRefuseTheFormat_whenTheTaskIsSpeech() {
        FieldError error = onlyError("{\"task\":\"speech\",\"prompt\":\"Hello\",\"responseFormat\":"
                + "{\"type\":\"json_object\"}}");

        assertThat(error.field()).isEqualTo("responseFormat");
        assertThat(error.code()).isEqualTo(ErrorCodes.NOT_APPLICABLE);
    }

    @Test
    void parse_shouldReportEveryBadMemberOfTheSpec_atOnce() {
        Outcome outcome = parser.parse(job("{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"a b\","
                + "\"schema\":{\"type\":\"strnig\"},\"strict\":1}}"), Source.API);

        assertThat(((Outcome.Invalid) outcome).errors()).extracting(FieldError::field).containsExactlyInAnyOrder(
                "responseFormat.json_schema.name", "responseFormat.json_schema.schema",
                "responseFormat.json_schema.strict");
    }

    @Test
    void parse_shouldKeepTheFormat_whenItIsValid() {
        InferenceJob text = valid(job("{\"type\":\"text\"}"));
        InferenceJob object = valid("{\"messages\":[{\"role\":\"user\",\"content\":\"JSON please\"}],"
                + "\"responseFormat\":{\"type\":\"json_object\"}}");
        InferenceJob schema = valid(job("{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"person\","
                + "\"description\":\"A person\",\"schema\":" + SCHEMA + ",\"strict\":true}}"));

        assertThat(text.responseFormat().type()).isEqualTo(ResponseFormat.Type.TEXT);
        assertThat(text.responseFormat().constrains()).isFalse();
        assertThat(object.responseFormat()).isEqualTo(ResponseFormat.jsonObject());
        JsonSchemaSpec spec = schema.responseFormat().jsonSchema();
        assertThat(spec.name()).isEqualTo("person");
        assertThat(spec.description()).isEqualTo("A person");
        assertThat(spec.strict()).isTrue();
        assertThat(spec.schema()).isEqualTo(JobJson.mapper().valueToTree(JobJson.read(SCHEMA, Object.class)));
    }

    @Test
    void parse_shouldAcceptLocalReferencesAndTheDraftsOwnDialect() {
        InferenceJob job = valid(schemaFormat("\"tree\"", """
                {"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"node":{"type":"object",
                 "properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},
                 "$ref":"#/$defs/node"}"""));

        assertThat(job.responseFormat().type()).isEqualTo(ResponseFormat.Type.JSON_SCHEMA);
    }

    @Test
    void job_shouldTravelIntact_asTheQueueMessageInOpenAisShape() {
        InferenceJob accepted = valid(job("{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"person\","
                + "\"schema\":" + SCHEMA + ",\"strict\":false}}")).submittedBy(ALICE);

        String message = JobMessage.inline(accepted);
        Outcome received = parser.parse(message, Source.QUEUE);

        assertThat(JobJson.mapper().valueToTree(accepted).path("responseFormat").path("json_schema").path("schema")
                .path("required").toString()).isEqualTo("[\"name\",\"age\"]");
        assertThat(received).isEqualTo(new Outcome.Valid(accepted));
    }
}
