package io.gpupipe.model.contract;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The fields of a body that OpenAI's schema does not declare. OpenAI's schemas leave objects open (no
 * {@code additionalProperties: false}), so a validator alone accepts any extra field; this walk names each one, so
 * that every extension we send or serve is a named {@link Deviation}. An object is open where a candidate schema
 * has {@code additionalProperties} (a map such as {@code metadata}) or no candidate declares properties at all.
 */
final class DeclaredFields {
    private static final List<String> COMPOSITIONS = List.of("allOf", "anyOf", "oneOf");
    private final JsonNode document;

    DeclaredFields(JsonNode document) {
        this.document = document;
    }

    List<String> undeclared(JsonNode body, String schema) {
        List<String> found = new ArrayList<>();
        walk(body, List.of(document.path("components").path("schemas").path(schema)), "", found);
        return found;
    }

    private void walk(JsonNode value, List<JsonNode> candidates, String path, List<String> found) {
        List<JsonNode> schemas = expand(candidates);
        if (value.isObject()) {
            Map<String, List<JsonNode>> properties = new LinkedHashMap<>();
            boolean open = schemas.stream().noneMatch(s -> s.has("properties"));
            for (JsonNode schema : schemas) {
                schema.path("properties").properties().forEach(p -> properties
                        .computeIfAbsent(p.getKey(), k -> new ArrayList<>()).add(p.getValue()));
                JsonNode additional = schema.get("additionalProperties");
                open |= additional != null && !(additional.isBoolean() && !additional.asBoolean());
            }
            for (Map.Entry<String, JsonNode> field : value.properties()) {
                String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (properties.containsKey(field.getKey())) {
                    walk(field.getValue(), properties.get(field.getKey()), fieldPath, found);
                } else if (!open) {
                    found.add(fieldPath);
                }
            }
        } else if (value.isArray()) {
            List<JsonNode> items = schemas.stream().filter(s -> s.has("items")).map(s -> s.get("items")).toList();
            value.forEach(element -> walk(element, items, path + "[]", found));
        }
    }

    /** The candidates with every {@code $ref} resolved and every composition flattened (each schema once). */
    private List<JsonNode> expand(List<JsonNode> candidates) {
        Set<JsonNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<JsonNode> expanded = new ArrayList<>();
        List<JsonNode> pending = new ArrayList<>(candidates);
        while (!pending.isEmpty()) {
            JsonNode schema = pending.remove(pending.size() - 1);
            if (!seen.add(schema)) {
                continue;
            }
            if (schema.has("$ref")) {
                pending.add(document.at(schema.get("$ref").asString().substring(1)));
            }
            COMPOSITIONS.forEach(keyword -> schema.path(keyword).forEach(pending::add));
            expanded.add(schema);
        }
        return expanded;
    }
}
