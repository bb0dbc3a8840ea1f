package io.gpupipe.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads typed, optional fields from a JSON object, recording a {@link FieldError} for each wrong one. Every request
 * validator reads through it (jobs, chat messages, batches), so a field's type and range errors read alike.
 */
public final class FieldReader {
    private final JsonNode body;
    private final List<FieldError> errors;
    private final String prefix;

    public FieldReader(JsonNode body, List<FieldError> errors) {
        this(body, errors, "");
    }

    /** A reader of a nested object whose errors name its fields {@code prefix + field} (e.g. "messages[2]."). */
    public FieldReader(JsonNode body, List<FieldError> errors, String prefix) {
        this.body = body;
        this.errors = errors;
        this.prefix = prefix;
    }

    /** A reader of {@code node}, an object inside this one, whose errors name its fields {@code prefix + inner}. */
    public FieldReader nested(JsonNode node, String inner) {
        return new FieldReader(node, errors, prefix + inner);
    }

    /** How many errors have been recorded so far (by this reader and the others sharing its list). */
    public int errorCount() {
        return errors.size();
    }

    /** Absent and explicit JSON null are treated alike: the field was not given. */
    public boolean isAbsent(String field) {
        JsonNode node = body.get(field);
        return node == null || node.isNull();
    }

    /** The raw node of a field that is not absent. */
    public JsonNode node(String field) {
        return body.get(field);
    }

    public void error(String field, String code, String message) {
        errors.add(new FieldError(prefix + field, code, message.startsWith(field) ? prefix + message : message));
    }

    public Optional<String> string(String field) {
        if (isAbsent(field)) {
            return Optional.empty();
        }
        JsonNode node = body.get(field);
        if (!node.isTextual()) {
            wrongType(field, "a string", node);
            return Optional.empty();
        }
        return Optional.of(node.textValue());
    }

    public Optional<Integer> integer(String field, int min, int max) {
        if (isAbsent(field)) {
            return Optional.empty();
        }
        JsonNode node = body.get(field);
        if (!node.isIntegralNumber()) {
            wrongType(field, "an integer", node);
            return Optional.empty();
        }
        if (!node.canConvertToInt() || node.intValue() < min || node.intValue() > max) {
            error(field, ErrorCodes.OUT_OF_RANGE, field + " must be between " + min + " and " + max
                    + ", got " + node.asText());
            return Optional.empty();
        }
        return Optional.of(node.intValue());
    }

    public Optional<Double> number(String field, double min, double max) {
        if (isAbsent(field)) {
            return Optional.empty();
        }
        JsonNode node = body.get(field);
        if (!node.isNumber()) {
            wrongType(field, "a number", node);
            return Optional.empty();
        }
        double value = node.doubleValue();
        if (Double.isNaN(value) || value < min || value > max) {
            error(field, ErrorCodes.OUT_OF_RANGE, field + " must be between " + min + " and " + max
                    + ", got " + node.asText());
            return Optional.empty();
        }
        return Optional.of(value);
    }

    public Optional<Boolean> bool(String field) {
        if (isAbsent(field)) {
            return Optional.empty();
        }
        JsonNode node = body.get(field);
        if (!node.isBoolean()) {
            wrongType(field, "true or false", node);
            return Optional.empty();
        }
        return Optional.of(node.booleanValue());
    }

    public <E> Optional<E> enumValue(String field, Function<String, Optional<E>> lookup, String allowed) {
        Optional<String> text = string(field);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Optional<E> value = lookup.apply(text.get());
        if (value.isEmpty()) {
            error(field, ErrorCodes.INVALID_VALUE, field + " must be one of: " + allowed + "; got \""
                    + text.get() + "\"");
        }
        return value;
    }

    /**
     * False when {@code field} is absent; false with a {@code not_applicable} error when it is given on a job whose
     * task is not {@code only}; true when it is given and applies.
     */
    public boolean appliesTo(String field, Task task, Task only) {
        if (isAbsent(field)) {
            return false;
        }
        if (task != only) {
            error(field, ErrorCodes.NOT_APPLICABLE, field + " applies only to task \"" + only.wireName() + "\"");
            return false;
        }
        return true;
    }

    private void wrongType(String field, String expected, JsonNode actual) {
        error(field, ErrorCodes.INVALID_TYPE, field + " must be " + expected + ", got "
                + describe(actual));
    }

    /** "a string", "an array", … for error messages. */
    public static String describe(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case BOOLEAN -> "a boolean";
            case NUMBER -> node.isIntegralNumber() ? "an integer" : "a decimal number";
            case STRING -> "a string";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
