package io.gpupipe.worker.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import java.util.Optional;
import java.util.Set;

/**
 * vLLM's {@code response_format} on {@code /v1/completions} and {@code /v1/chat/completions} (structured outputs),
 * as the stand-in serves it.
 * <ul>
 * <li>Schema ({@code AnyResponseFormat}: {@code ResponseFormat{type: Literal["text", "json_object", "json_schema"],
 * json_schema: JsonSchemaResponseFormat | None}} with {@code JsonSchemaResponseFormat{name: str, description,
 * schema (alias of json_schema), strict: bool | None}}, or a {@code structural_tag} format; vLLM's protocol
 * modules): a body that breaks it is a 400 BadRequestError with pydantic's error list.</li>
 * <li>Guided decoding: the output is a JSON document valid against the schema (json_object: an object), produced
 * {@link #CHARS_PER_TOKEN} characters per token; like vLLM, decoding stops at max_tokens, so an output cut there is
 * not valid JSON and its finish_reason is "length". The document is the smallest the schema allows, with words for
 * strings: a stand-in for xgrammar, not a model.</li>
 * </ul>
 */
final class StructuredOutputContract {
    static final int CHARS_PER_TOKEN = 4;
    private static final Set<String> TYPES = Set.of("text", "json_object", "json_schema", "structural_tag");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StructuredOutputContract() {
    }

    /** The 400 vLLM answers for a malformed {@code response_format}, if any. */
    static Optional<String> reject(JsonNode body) {
        JsonNode format = body.get("response_format");
        if (format == null || format.isNull()) {
            return Optional.empty();
        }
        if (!format.isObject() || !TYPES.contains(format.path("type").asText(null))) {
            return Optional.of(pydantic("literal_error", "type",
                    "Input should be 'text', 'json_object' or 'json_schema'"));
        }
        JsonNode spec = format.get("json_schema");
        if (spec != null && !spec.isNull()) {
            if (!spec.path("name").isTextual()) {
                return Optional.of(pydantic("missing", "json_schema', 'name", "Field required"));
            }
            if (spec.has("schema") && !spec.get("schema").isObject() && !spec.get("schema").isNull()) {
                return Optional.of(pydantic("dict_type", "json_schema', 'schema", "Input should be a valid "
                        + "dictionary"));
            }
            if (spec.has("strict") && !spec.get("strict").isBoolean() && !spec.get("strict").isNull()) {
                return Optional.of(pydantic("bool_type", "json_schema', 'strict", "Input should be a valid "
                        + "boolean"));
            }
        }
        return Optional.empty();
    }

    /** The whole document guided decoding produces for this body; empty when it asks for free text. */
    static Optional<String> document(JsonNode body, String[] words) {
        JsonNode format = body.path("response_format");
        return switch (format.path("type").asText("text")) {
            case "json_object" -> Optional.of(JobJson.write(NODES.objectNode().put("answer", words[0])));
            case "json_schema" -> Optional.of(JobJson.write(instance(format.path("json_schema").path("schema"),
                    format.path("json_schema").path("schema"), words)));
            default -> Optional.empty();
        };
    }

    /** How many tokens the document takes. */
    static int tokens(String document) {
        return (document.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }

    /** The text of the first {@code generated} tokens of the document. */
    static String prefix(String document, int generated) {
        return document.substring(0, Math.min(document.length(), generated * CHARS_PER_TOKEN));
    }

    /** The smallest instance of {@code schema}: required properties only, minItems items, the first enum value. */
    private static JsonNode instance(JsonNode schema, JsonNode root, String[] words) {
        if (schema.has("const")) {
            return schema.get("const");
        }
        if (schema.has("enum") && schema.get("enum").size() > 0) {
            return schema.get("enum").get(0);
        }
        if (schema.path("$ref").asText("").startsWith("#")) {
            return instance(root.at(schema.get("$ref").asText().substring(1)), root, words);
        }
        for (String choice : new String[] {"anyOf", "oneOf", "allOf"}) {
            if (schema.path(choice).size() > 0) {
                return instance(schema.get(choice).get(0), root, words);
            }
        }
        JsonNode type = schema.path("type");
        String name = type.isArray() ? type.path(0).asText("null") : type.asText("object");
        return switch (name) {
            case "string" -> NODES.textNode(padded(words[1], schema.path("minLength").asInt(0)));
            case "integer" -> NODES.numberNode(schema.path("minimum").asLong(0));
            case "number" -> NODES.numberNode(schema.path("minimum").asDouble(0));
            case "boolean" -> NODES.booleanNode(true);
            case "null" -> NODES.nullNode();
            case "array" -> {
                ArrayNode items = NODES.arrayNode();
                for (int i = 0; i < schema.path("minItems").asInt(0); i++) {
                    items.add(instance(schema.path("items"), root, words));
                }
                yield items;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                schema.path("required").forEach(property -> object.set(property.asText(),
                        instance(schema.path("properties").path(property.asText()), root, words)));
                yield object;
            }
        };
    }

    private static String padded(String word, int minLength) {
        return word.length() >= minLength ? word : word + "x".repeat(minLength - word.length());
    }

    private static String pydantic(String type, String field, String msg) {
        return "[{'type': '" + type + "', 'loc': ('body', 'response_format', '" + field + "'), 'msg': '" + msg
                + "'}]";
    }
}
