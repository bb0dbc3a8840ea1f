package io.gpupipe.model.format;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import java.util.Optional;

/**
 * Reads a job's {@code responseFormat} (OpenAI's {@code response_format} shape), reporting each problem on the field
 * it concerns ({@code responseFormat.type}, {@code responseFormat.json_schema.schema}, ...). A schema must be a JSON
 * Schema 2020-12 object that the draft's meta-schema accepts, at most {@link #MAX_SCHEMA_CHARS} characters as compact
 * JSON, whose references stay inside it.
 */
public final class ResponseFormatReader {
    public static final String FIELD = "responseFormat";
    /** Our limit on a schema, as compact JSON: room for a few hundred properties; the job must still fit a message. */
    public static final int MAX_SCHEMA_CHARS = 32_768;
    public static final int MAX_DESCRIPTION_CHARS = 1_024;
    private static final String SPEC = "json_schema";

    private ResponseFormatReader() {
    }

    /** The job's response format; null when absent or wrong (then {@code fields} holds the errors). */
    public static ResponseFormat read(FieldReader fields, Task task) {
        if (fields.isAbsent(FIELD)) {
            return null;
        }
        if (task != Task.GENERATE) {
            fields.error(FIELD, ErrorCodes.NOT_APPLICABLE, FIELD + " applies only to task \"generate\"");
            return null;
        }
        JsonNode node = fields.node(FIELD);
        if (!node.isObject()) {
            fields.error(FIELD, ErrorCodes.INVALID_TYPE, FIELD + " must be an object {type, json_schema}, got "
                    + FieldReader.describe(node));
            return null;
        }
        FieldReader format = fields.nested(node, FIELD + ".");
        if (format.isAbsent("type")) {
            format.error("type", ErrorCodes.REQUIRED, "type is required: text, json_object or json_schema");
            return null;
        }
        Optional<ResponseFormat.Type> type = format.enumValue("type", ResponseFormat.Type::fromWireName,
                "text, json_object, json_schema");
        if (type.isEmpty()) {
            return null;
        }
        if (type.get() != ResponseFormat.Type.JSON_SCHEMA) {
            if (!format.isAbsent(SPEC)) {
                format.error(SPEC, ErrorCodes.NOT_APPLICABLE, SPEC + " applies only to type \"json_schema\"");
                return null;
            }
            return new ResponseFormat(type.get(), null);
        }
        return readSpec(format).map(ResponseFormat::jsonSchema).orElse(null);
    }

    private static Optional<JsonSchemaSpec> readSpec(FieldReader format) {
        if (format.isAbsent(SPEC)) {
            format.error(SPEC, ErrorCodes.REQUIRED, SPEC + " is required for type \"json_schema\": {name, schema, "
                    + "strict}");
            return Optional.empty();
        }
        JsonNode node = format.node(SPEC);
        if (!node.isObject()) {
            format.error(SPEC, ErrorCodes.INVALID_TYPE, SPEC + " must be an object {name, schema, strict}, got "
                    + FieldReader.describe(node));
            return Optional.empty();
        }
        int errorsBefore = format.errorCount();
        FieldReader spec = format.nested(node, SPEC + ".");
        String name = readName(spec);
        String description = spec.string("description").orElse(null);
        if (description != null && description.length() > MAX_DESCRIPTION_CHARS) {
            spec.error("description", ErrorCodes.TOO_LONG, "description must be at most " + MAX_DESCRIPTION_CHARS
                    + " characters, got " + description.length());
        }
        JsonNode schema = readSchema(spec);
        Boolean strict = spec.bool("strict").orElse(null);
        if (format.errorCount() > errorsBefore) {
            return Optional.empty();
        }
        return Optional.of(new JsonSchemaSpec(name, description, schema, strict));
    }

    private static String readName(FieldReader spec) {
        if (spec.isAbsent("name")) {
            spec.error("name", ErrorCodes.REQUIRED, "name is required (a-z, A-Z, 0-9, _ and -, at most 64)");
            return null;
        }
        Optional<String> name = spec.string("name");
        if (name.isPresent() && !JsonSchemaSpec.NAME.matcher(name.get()).matches()) {
            spec.error("name", ErrorCodes.INVALID_FORMAT, "name must be 1 to 64 of a-z, A-Z, 0-9, _ and -, got \""
                    + name.get() + "\"");
        }
        return name.orElse(null);
    }

    /** The schema, judged in order: present, an object, small enough, self-contained, valid per the meta-schema. */
    private static JsonNode readSchema(FieldReader spec) {
        if (spec.isAbsent("schema")) {
            spec.error("schema", ErrorCodes.REQUIRED, "schema is required: the JSON Schema the output must match");
            return null;
        }
        JsonNode schema = spec.node("schema");
        if (!schema.isObject()) {
            spec.error("schema", ErrorCodes.INVALID_TYPE, "schema must be a JSON Schema object, got "
                    + FieldReader.describe(schema));
            return null;
        }
        int chars = JobJson.write(schema).length();
        if (chars > MAX_SCHEMA_CHARS) {
            spec.error("schema", ErrorCodes.TOO_LONG, "schema must be at most " + MAX_SCHEMA_CHARS
                    + " characters as compact JSON, got " + chars);
            return null;
        }
        Optional<String> problem = SchemaChecks.problem(schema)
                .or(() -> JsonSchemas.metaSchemaViolation(schema)
                        .map(why -> "schema is not a valid JSON Schema (draft 2020-12): " + why));
        problem.ifPresent(why -> spec.error("schema", ErrorCodes.INVALID_VALUE, why));
        return problem.isPresent() ? null : schema;
    }
}
