package io.gpupipe.model.embedding;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.JobLimits;
import io.gpupipe.model.Task;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedding job's own fields ({@code input}, {@code dimensions}, {@code encodingFormat}), read and validated for
 * the job validators; on any other task they are {@code not_applicable}, and on an embedding job the text
 * fields are ({@code prompt}, {@code maxTokens}, {@code temperature}, {@code topP}; {@code messages}, {@code seed}
 * and the speech fields are refused by their own rules).
 *
 * @param input          the texts to embed, in order (a single string is a list of one)
 * @param dimensions     the length asked for each vector, when shorter than the model's own; null: the model's
 * @param encodingFormat how the vectors are written; null means {@link EncodingFormat#FLOAT}
 */
public record EmbeddingFields(List<String> input, Integer dimensions, EncodingFormat encodingFormat) {
    /** The most texts one job embeds (OpenAI allows 2,048; 256 keeps one job's vectors and time bounded). */
    public static final int MAX_INPUTS = 256;
    /** The most characters of one text: about 2,000 tokens, four times the bundled model's 512-token context. */
    public static final int MAX_INPUT_CHARS = 8_192;
    /** The most characters of all texts together: the prompt limit of every job. */
    public static final int MAX_TOTAL_CHARS = JobLimits.MAX_PROMPT_CHARS;
    /** The largest {@code dimensions} asked for (OpenAI's largest model has 3,072); the model's own may be less. */
    public static final int MAX_DIMENSIONS = 8_192;
    /** Bad inputs reported one by one, at most this many (keeps a 400 small). */
    static final int MAX_REPORTED_ERRORS = 10;
    private static final List<String> TEXT_FIELDS = List.of("prompt", "maxTokens", "temperature", "topP");
    private static final List<String> OWN_FIELDS = List.of("input", "dimensions", "encodingFormat");

    public EmbeddingFields {
        input = List.copyOf(input);
    }

    /**
     * The fields of an embedding job, or null for another task; every problem goes to {@code fields}. A queue
     * message carries the text fields' defaults of every job ({@link io.gpupipe.model.job.InferenceJob} writes them
     * all), so they are refused only in a client's request ({@code fromClient}).
     */
    public static EmbeddingFields read(FieldReader fields, Task task, boolean fromClient) {
        if (task != Task.EMBED) {
            OWN_FIELDS.stream().filter(f -> !fields.isAbsent(f)).forEach(f -> fields.error(f,
                    ErrorCodes.NOT_APPLICABLE, f + " applies only to task \"embed\""));
            return null;
        }
        TEXT_FIELDS.stream().filter(f -> fromClient && !fields.isAbsent(f)).forEach(f -> fields.error(f, ErrorCodes.NOT_APPLICABLE,
                f + " does not apply to task \"embed\"" + ("prompt".equals(f) ? " (give the texts as input)" : "")));
        List<String> input = readInput(fields);
        Integer dimensions = fields.integer("dimensions", 1, MAX_DIMENSIONS).orElse(null);
        EncodingFormat format = fields.enumValue("encodingFormat", EncodingFormat::fromWireName, "float, base64")
                .orElse(null);
        return input == null ? null : new EmbeddingFields(input, dimensions, format);
    }

    /** {@link #encodingFormat()}, its default applied. */
    public EncodingFormat format() {
        return encodingFormat == null ? EncodingFormat.FLOAT : encodingFormat;
    }

    /** The characters of every input together. */
    public static int chars(List<String> input) {
        return input.stream().mapToInt(String::length).sum();
    }

    private static List<String> readInput(FieldReader fields) {
        if (fields.isAbsent("input")) {
            fields.error("input", ErrorCodes.REQUIRED, "input is required for task \"embed\": a string or an array "
                    + "of strings");
            return null;
        }
        JsonNode node = fields.node("input");
        List<String> texts = new ArrayList<>();
        int errorsBefore = fields.errorCount();
        if (node.isTextual()) {
            checkText(fields, "input", node.textValue());
            texts.add(node.textValue());
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                fields.error("input", ErrorCodes.REQUIRED, "input must hold at least one string");
            } else if (node.size() > MAX_INPUTS) {
                fields.error("input", ErrorCodes.TOO_LONG, "input must hold at most " + MAX_INPUTS + " strings, got "
                        + node.size());
            } else {
                readArray(fields, node, texts);
            }
        } else {
            fields.error("input", ErrorCodes.INVALID_TYPE, "input must be a string or an array of strings, got "
                    + FieldReader.describe(node));
        }
        if (fields.errorCount() == errorsBefore && chars(texts) > MAX_TOTAL_CHARS) {
            fields.error("input", ErrorCodes.TOO_LONG, "input must be at most " + MAX_TOTAL_CHARS
                    + " characters in all, got " + chars(texts));
        }
        return fields.errorCount() == errorsBefore ? texts : null;
    }

    private static void readArray(FieldReader fields, JsonNode array, List<String> texts) {
        int reported = 0;
        for (int i = 0; i < array.size() && reported < MAX_REPORTED_ERRORS; i++) {
            JsonNode element = array.get(i);
            String field = "input[" + i + "]";
            if (!element.isTextual()) {
                fields.error(field, ErrorCodes.INVALID_TYPE, field + " must be a string, got "
                        + FieldReader.describe(element));
                reported++;
            } else if (!checkText(fields, field, element.textValue())) {
                reported++;
            } else {
                texts.add(element.textValue());
            }
        }
    }

    private static boolean checkText(FieldReader fields, String field, String text) {
        if (text.isBlank()) {
            fields.error(field, ErrorCodes.REQUIRED, field + " must not be empty or whitespace");
            return false;
        }
        if (text.length() > MAX_INPUT_CHARS) {
            fields.error(field, ErrorCodes.TOO_LONG, field + " must be at most " + MAX_INPUT_CHARS
                    + " characters, got " + text.length());
            return false;
        }
        return true;
    }
}
