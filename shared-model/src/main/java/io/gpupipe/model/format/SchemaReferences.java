package io.gpupipe.model.format;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps a client's schema self-contained: every {@code $ref} and {@code $dynamicRef} points inside it ("#..."), and
 * {@code $schema}, when given, names draft 2020-12. A schema that refers to a URL would have the router or a worker
 * fetch it (a request to wherever the client says) and would mean something else when that URL changes.
 */
final class SchemaReferences {
    private static final String[] REFERENCE_KEYWORDS = {"$ref", "$dynamicRef"};

    private SchemaReferences() {
    }

    /** Why {@code schema} is not self-contained, as an error message on the field "schema"; empty when it is. */
    static Optional<String> outsideReference(JsonNode schema) {
        JsonNode dialect = schema.get("$schema");
        if (dialect != null && !(dialect.isTextual() && isDraft202012(dialect.textValue()))) {
            return Optional.of("schema must be JSON Schema draft 2020-12: $schema is " + dialect + ", expected \""
                    + JsonSchemas.DRAFT_2020_12 + "\" or no $schema");
        }
        return find(schema, "");
    }

    private static boolean isDraft202012(String iri) {
        return iri.equals(JsonSchemas.DRAFT_2020_12) || iri.equals(JsonSchemas.DRAFT_2020_12 + "#");
    }

    private static Optional<String> find(JsonNode node, String pointer) {
        if (node.isObject()) {
            for (String keyword : REFERENCE_KEYWORDS) {
                JsonNode target = node.get(keyword);
                if (target != null && target.isTextual() && !target.textValue().startsWith("#")) {
                    return Optional.of("schema may refer only inside itself (\"#...\"): " + keyword + " \""
                            + target.textValue() + "\" at " + (pointer.isEmpty() ? "/" : pointer));
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                Optional<String> found = find(field.getValue(), pointer + "/" + escape(field.getKey()));
                if (found.isPresent()) {
                    return found;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> found = find(node.get(i), pointer + "/" + i);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /** A JSON Pointer reference token (RFC 6901): "~" as "~0", "/" as "~1". */
    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
