package io.gpupipe.model.contract;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Takes the named {@link Deviation}s out of a body before it is judged. */
final class Deviations {
    private Deviations() {
    }

    /** Applies each deviation to {@code body} in place; returns what was wrong with one (a retyped value's type). */
    static List<String> takeOut(JsonNode body, List<Deviation> deviations) {
        List<String> problems = new ArrayList<>();
        for (Deviation deviation : deviations) {
            List<String> segments = Arrays.asList(deviation.path().split("\\."));
            apply(body, segments, deviation, problems);
        }
        return problems;
    }

    private static void apply(JsonNode node, List<String> segments, Deviation deviation, List<String> problems) {
        String segment = segments.get(0);
        boolean each = segment.endsWith("[]");
        String name = each ? segment.substring(0, segment.length() - 2) : segment;
        if (!(node instanceof ObjectNode object) || !object.has(name)) {
            return;
        }
        if (segments.size() > 1 || each) {
            JsonNode child = object.get(name);
            List<String> rest = segments.subList(1, segments.size());
            if (each && rest.isEmpty()) {
                return;
            }
            if (each) {
                child.forEach(element -> apply(element, rest, deviation, problems));
            } else {
                apply(child, rest, deviation, problems);
            }
            return;
        }
        JsonNode value = object.get(name);
        switch (deviation.kind()) {
            case EXTENSION -> object.remove(name);
            case NULL_FOR_ABSENT -> {
                if (value.isNull()) {
                    object.remove(name);
                }
            }
            case INTEGER_FOR_NULLABLE_STRING -> {
                if (!value.isIntegralNumber()) {
                    problems.add(deviation.path() + ": expected an integer (" + deviation.source() + "), got "
                            + value);
                }
                object.putNull(name);
            }
        }
    }
}
