package io.gpupipe.model.format;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import java.util.Arrays;
import java.util.Optional;

/**
 * The shape a text job's output must take, in OpenAI's {@code response_format} form: {@code {"type":"text"}} (no
 * constraint), {@code {"type":"json_object"}} (one JSON object) or {@code {"type":"json_schema","json_schema":{...}}}
 * (a JSON document valid against the schema). Build one from untrusted JSON with {@link ResponseFormatReader}; the
 * constructor only guards the invariant that a {@code json_schema} format, and only it, carries its schema.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResponseFormat(Type type, @JsonProperty("json_schema") JsonSchemaSpec jsonSchema) {

    /** OpenAI's three {@code response_format} types (vLLM's {@code ResponseFormat.type} literal too). */
    public enum Type {
        TEXT("text"),
        JSON_OBJECT("json_object"),
        JSON_SCHEMA("json_schema");

        private final String wireName;

        Type(String wireName) {
            this.wireName = wireName;
        }

        @JsonValue
        public String wireName() {
            return wireName;
        }

        /** The type with this wire name, if any (case-sensitive, as in OpenAI's API). */
        public static Optional<Type> fromWireName(String name) {
            return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
        }

        @JsonCreator
        static Type fromJson(String name) {
            return fromWireName(name).orElseThrow(() -> new IllegalArgumentException("unknown type: " + name));
        }
    }

    public ResponseFormat {
        if (type == null || (type == Type.JSON_SCHEMA) != (jsonSchema != null)) {
            throw new IllegalArgumentException("a response format has a type, and a json_schema exactly when its type"
                    + " is json_schema");
        }
    }

    public static ResponseFormat jsonObject() {
        return new ResponseFormat(Type.JSON_OBJECT, null);
    }

    public static ResponseFormat jsonSchema(JsonSchemaSpec spec) {
        return new ResponseFormat(Type.JSON_SCHEMA, spec);
    }

    /** False for {@code text}: such a format asks for nothing, so it neither reaches the model nor splits the cache. */
    public boolean constrains() {
        return type != Type.TEXT;
    }

    /**
     * The JSON Schema every output of this format satisfies, for a backend that constrains decoding by schema
     * (llama.cpp's grammar from a schema): the client's schema, {@code {"type":"object"}} for json_object; empty for
     * text.
     */
    public Optional<JsonNode> outputSchema() {
        return switch (type) {
            case TEXT -> Optional.empty();
            case JSON_OBJECT -> Optional.of(JobJson.mapper().createObjectNode().put("type", "object"));
            case JSON_SCHEMA -> Optional.of(jsonSchema.schema());
        };
    }

    /**
     * Why {@code output} does not take this format (not JSON, not an object, not valid against the schema); empty
     * when it does. Leading and trailing whitespace are allowed, anything else around the document is not.
     */
    public Optional<String> violation(String output) {
        return switch (type) {
            case TEXT -> Optional.empty();
            case JSON_OBJECT -> JsonSchemas.objectViolation(output);
            case JSON_SCHEMA -> JsonSchemas.instanceViolation(jsonSchema.schema(), output);
        };
    }
}
