package io.gpupipe.model.format;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Keeps a client's schema self-contained: every {@code $ref} and {@code $dynamicRef} points inside it ("#..."), and
 * {@code $schema}, when given, names draft 2020-12. A schema that refers to a URL would have the router or a worker
 * fetch it (a request to wherever the client says) and would mean something else when that URL changes. Its
 * {@code pattern}s and {@code patternProperties} names must be regular expressions: the meta-schema only annotates
 * them ({@code format: regex}), and a worker must not meet a broken one only when it checks the output.
 */
final class SchemaChecks {
    private static final String[] REFERENCE_KEYWORDS = {"$ref", "$dynamicRef"};

    private SchemaChecks() {
    }

    /** What is wrong with {@code schema} (see the class comment), as an error on the field "schema"; empty if none. */
    static Optional<String> problem(JsonNode schema) {
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
            Optional<String> badPattern = badPattern(node, pointer);
            if (badPattern.isPresent()) {
                return badPattern;
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

    private static Optional<String> badPattern(JsonNode node, String pointer) {
        JsonNode pattern = node.get("pattern");
        if (pattern != null && pattern.isTextual() && !compiles(pattern.textValue())) {
            return Optional.of("schema has a pattern that is no regular expression at " + pointer + "/pattern: "
                    + pattern);
        }
        JsonNode named = node.get("patternProperties");
        if (named != null && named.isObject()) {
            for (Iterator<String> names = named.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!compiles(name)) {
                    return Optional.of("schema has a patternProperties name that is no regular expression at "
                            + pointer + "/patternProperties: \"" + name + "\"");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean compiles(String regex) {
        try {
            Pattern.compile(regex);
            return true;
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    /** A JSON Pointer reference token (RFC 6901): "~" as "~0", "/" as "~1". */
    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
