package io.gpupipe.model.format;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Pattern;

/**
 * The {@code json_schema} member of a {@code json_schema} response format, as OpenAI names its fields: the schema's
 * {@code name} (OpenAI: a-z, A-Z, 0-9, underscores and dashes, at most 64), an optional {@code description}, the
 * {@code schema} itself (a JSON Schema 2020-12 object) and {@code strict}, passed on to the model server as given.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JsonSchemaSpec(String name, String description, JsonNode schema, Boolean strict) {
    /** OpenAI's rule for {@code json_schema.name} (API reference, "Structured Outputs"). */
    public static final Pattern NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

    public JsonSchemaSpec {
        if (name == null || !NAME.matcher(name).matches() || schema == null || !schema.isObject()) {
            throw new IllegalArgumentException("a json_schema has a name matching " + NAME + " and an object schema");
        }
        schema = schema.deepCopy();
    }

    /** The schema as a defensive copy: a record's JSON tree is mutable. */
    @Override
    public JsonNode schema() {
        return schema.deepCopy();
    }
}
