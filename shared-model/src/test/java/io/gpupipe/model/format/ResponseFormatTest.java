package io.gpupipe.model.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whether a model's output takes its job's format: the check the worker makes before it writes a success. */
class ResponseFormatTest {
    private static final JsonNode PERSON = JobJson.read("""
            {"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}},
             "required":["name","age"],"additionalProperties":false}""", JsonNode.class);
    private static final ResponseFormat PERSON_FORMAT = ResponseFormat.jsonSchema(
            new JsonSchemaSpec("person", null, PERSON, true));

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"a\":[1,2]}", "  \n{\"a\":null}\n "})
    void violation_shouldBeEmpty_whenJsonObjectOutputIsOneObject(String output) {
        assertThat(ResponseFormat.jsonObject().violation(output)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "[1]", "\"text\"", "42", "{\"a\":", "{\"a\":1} trailing", "{}{}",
        "Sure! {\"a\":1}", "{'a':1}"})
    void violation_shouldNameWhy_whenJsonObjectOutputIsNotOneObject(String output) {
        assertThat(ResponseFormat.jsonObject().violation(output)).hasValueSatisfying(why ->
                assertThat(why).startsWith("the output is"));
    }

    @Test
    void violation_shouldBeEmpty_whenOutputMatchesTheSchema() {
        assertThat(PERSON_FORMAT.violation("{\"name\":\"Lily\",\"age\":3}")).isEmpty();
    }

    @Test
    void violation_shouldNameTheSchemasComplaint_whenOutputDoesNotMatch() {
        assertThat(PERSON_FORMAT.violation("{\"name\":\"Lily\"}")).hasValueSatisfying(why ->
                assertThat(why).startsWith("the output does not match the schema").contains("age"));
        assertThat(PERSON_FORMAT.violation("{\"name\":\"Lily\",\"age\":-1}")).isPresent();
        assertThat(PERSON_FORMAT.violation("{\"name\":\"Lily\",\"age\":3,\"pet\":\"cat\"}")).isPresent();
        assertThat(PERSON_FORMAT.violation("[\"Lily\",3]")).isPresent();
    }

    @Test
    void violation_shouldCallItNotJson_whenTheOutputWasCutShort() {
        assertThat(PERSON_FORMAT.violation("{\"name\":\"Li")).hasValueSatisfying(why ->
                assertThat(why).startsWith("the output is not valid JSON"));
    }

    @Test
    void violation_shouldBeEmpty_forTextWhateverTheOutput() {
        assertThat(new ResponseFormat(ResponseFormat.Type.TEXT, null).violation("{not json")).isEmpty();
    }

    @Test
    void outputSchema_shouldBeWhatEveryConformingOutputSatisfies() {
        assertThat(new ResponseFormat(ResponseFormat.Type.TEXT, null).outputSchema()).isEmpty();
        assertThat(ResponseFormat.jsonObject().outputSchema()).hasValue(JobJson.read("{\"type\":\"object\"}",
                JsonNode.class));
        assertThat(PERSON_FORMAT.outputSchema()).hasValue(PERSON);
    }

    @Test
    void constructor_shouldRefuse_whenTheSchemaDoesNotGoWithTheType() {
        JsonSchemaSpec spec = new JsonSchemaSpec("person", null, PERSON, null);
        assertThatThrownBy(() -> new ResponseFormat(ResponseFormat.Type.JSON_OBJECT, spec))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ResponseFormat(ResponseFormat.Type.JSON_SCHEMA, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JsonSchemaSpec("bad name", null, PERSON, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void json_shouldBeOpenAisShape() {
        assertThat(JobJson.write(PERSON_FORMAT)).startsWith("{\"type\":\"json_schema\",\"json_schema\":{\"name\":"
                + "\"person\",\"schema\":{");
        assertThat(JobJson.read(JobJson.write(PERSON_FORMAT), ResponseFormat.class)).isEqualTo(PERSON_FORMAT);
    }
}
