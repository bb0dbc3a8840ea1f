package io.gpupipe.model.batch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.CallbackUrls;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Validates a create-batch request: {@code input_file_id} (a key handed out by {@code POST /v1/batches/uploads}),
 * {@code endpoint}, {@code completion_window} ("24h", the only window OpenAI offers; the default here), optional
 * {@code metadata} (OpenAI's limits) and {@code callback_url} (the job callback rule). Every bad field at once.
 */
public final class BatchRequestParser {

    public sealed interface Outcome {
        record Valid(BatchRequest request) implements Outcome {
        }

        record Invalid(List<FieldError> errors) implements Outcome {
            public Invalid {
                errors = List.copyOf(errors);
            }
        }
    }

    private BatchRequestParser() {
    }

    public static Outcome parse(String json) {
        JsonNode body;
        try {
            body = json == null || json.isBlank() ? null : JobJson.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            return invalid("body", ErrorCodes.INVALID_FORMAT, "request body is not valid JSON: "
                    + e.getOriginalMessage());
        }
        if (body == null || !body.isObject()) {
            return invalid("body", ErrorCodes.REQUIRED, "request body must be a JSON object");
        }
        List<FieldError> errors = new ArrayList<>();
        FieldReader fields = new FieldReader(body, errors);
        String input = fields.string("input_file_id").orElse(null);
        if (fields.isAbsent("input_file_id")) {
            fields.error("input_file_id", ErrorCodes.REQUIRED, "input_file_id is required");
        } else if (input != null && !BatchLayout.isInputKey(input)) {
            fields.error("input_file_id", ErrorCodes.INVALID_VALUE, "input_file_id must be the key POST "
                    + "/v1/batches/uploads handed out (batch-inputs/<owner hash>/<uuid>.jsonl)");
        }
        BatchEndpoint endpoint = fields.enumValue("endpoint", BatchEndpoint::fromPath, BatchEndpoint.describePaths())
                .orElse(null);
        if (fields.isAbsent("endpoint")) {
            fields.error("endpoint", ErrorCodes.REQUIRED, "endpoint is required (" + BatchEndpoint.describePaths()
                    + ")");
        }
        String window = fields.string("completion_window").orElse(BatchLimits.COMPLETION_WINDOW);
        if (!BatchLimits.COMPLETION_WINDOW.equals(window)) {
            fields.error("completion_window", ErrorCodes.INVALID_VALUE, "completion_window must be \""
                    + BatchLimits.COMPLETION_WINDOW + "\"");
        }
        Map<String, String> metadata = readMetadata(fields, errors);
        String callbackUrl = fields.string("callback_url").orElse(null);
        if (callbackUrl != null) {
            CallbackUrls.check("callback_url", callbackUrl).ifPresent(errors::add);
        }
        if (!errors.isEmpty()) {
            return new Outcome.Invalid(errors);
        }
        return new Outcome.Valid(new BatchRequest(input, endpoint, window, metadata, callbackUrl));
    }

    private static Map<String, String> readMetadata(FieldReader fields, List<FieldError> errors) {
        if (fields.isAbsent("metadata")) {
            return null;
        }
        JsonNode node = fields.node("metadata");
        if (!node.isObject()) {
            fields.error("metadata", ErrorCodes.INVALID_TYPE, "metadata must be an object, got "
                    + FieldReader.describe(node));
            return null;
        }
        if (node.size() > BatchLimits.MAX_METADATA_PAIRS) {
            fields.error("metadata", ErrorCodes.TOO_LONG, "metadata holds at most " + BatchLimits.MAX_METADATA_PAIRS
                    + " pairs, got " + node.size());
            return null;
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> pair = it.next();
            String field = "metadata." + pair.getKey();
            if (pair.getKey().length() > BatchLimits.MAX_METADATA_KEY_CHARS) {
                errors.add(new FieldError(field, ErrorCodes.TOO_LONG, "metadata keys are at most "
                        + BatchLimits.MAX_METADATA_KEY_CHARS + " characters"));
            } else if (!pair.getValue().isTextual()
                    || pair.getValue().textValue().length() > BatchLimits.MAX_METADATA_VALUE_CHARS) {
                errors.add(new FieldError(field, ErrorCodes.INVALID_VALUE, "metadata values are strings of at most "
                        + BatchLimits.MAX_METADATA_VALUE_CHARS + " characters"));
            } else {
                metadata.put(pair.getKey(), pair.getValue().textValue());
            }
        }
        return metadata;
    }

    private static Outcome invalid(String field, String code, String message) {
        return new Outcome.Invalid(List.of(new FieldError(field, code, message)));
    }
}
